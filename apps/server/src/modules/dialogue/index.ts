/** The dialogue module's front door: what other modules may do (issue 26 item 1; the rest is its own). */
export type { DialogueInput, DialogueResult, DialogueStream } from './dialogue.service';
export { streamTextToDialogue, textToDialogue } from './dialogue.service';
