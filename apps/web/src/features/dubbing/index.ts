/** The dubbing feature's front door for other features. */
export { dubbingEditorPath } from './components/dub-list';
