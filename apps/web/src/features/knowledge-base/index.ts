/** The knowledge-base feature's front door: the pieces the knowledge-base page composes. */
export { useRagOverview } from './api/get-rag-overview';
export { AddDocumentDialog, type AddSource } from './components/add-document-dialog';
export { DeleteDocumentDialog } from './components/delete-document-dialog';
export { DocumentList } from './components/document-list';
export { DocumentPanel } from './components/document-panel';
export { RenameDocumentDialog } from './components/rename-document-dialog';
export { SidePanel } from './components/side-panel';
export { formatBytes } from './kb-rules';
