/** The pronunciation-dictionaries feature's front door: what its page composes. */

export { useDictionaries } from './api/list-dictionaries';
export { useDefaultDictionaries } from './api/workspace-dictionaries';
export { DictionaryEditor } from './components/dictionary-editor';
export { DictionaryList } from './components/dictionary-list';
export { NewDictionaryDialog } from './components/new-dictionary-dialog';
