/** The API keys feature's front door: the pieces the API keys page composes. */
export { ApiKeyList } from './components/api-key-list';
export { CreateApiKeyDialog } from './components/create-api-key-dialog';
export { DeleteApiKeyDialog } from './components/delete-api-key-dialog';
export { EditApiKeyDialog } from './components/edit-api-key-dialog';
