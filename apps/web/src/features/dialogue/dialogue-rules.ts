import { DIALOGUE_MAX_LINES, type DialogueLine, normalizeAudioTags } from '@parla/contracts';

/** A line in the editor: a dialogue line with a key that stays with it when lines move. */
export interface DraftLine extends DialogueLine {
  key: string;
}

let keys = 0;
/** A key unique in this page's life (React needs one that survives reordering). */
export function newLineKey(): string {
  keys += 1;
  return `line-${keys}`;
}

/** The editor's lines from the stored ones. */
export function toDraftLines(lines: readonly DialogueLine[]): DraftLine[] {
  return lines.map((line) => ({ ...line, key: newLineKey() }));
}

/** What is kept in local storage (history/voices §3 "Dialogue line"): text and voice_id, nothing else. */
export function toStoredLines(lines: readonly DraftLine[]): DialogueLine[] {
  return lines.map(({ text, voice_id }) => ({ text, voice_id }));
}

/** history/voices §9: no line is added past 50. */
export function canAddLine(lines: readonly unknown[]): boolean {
  return lines.length < DIALOGUE_MAX_LINES;
}

/**
 * The voice a new line starts with: a dialogue goes back and forth, so it answers the line before last
 * (A, B → A); with one line, the first other voice offered; with none, the first voice.
 */
export function nextLineVoice(lines: readonly DialogueLine[], voiceIds: readonly string[]): string {
  const last = lines.at(-1)?.voice_id;
  const beforeLast = lines.at(-2)?.voice_id;
  if (beforeLast && beforeLast !== last && voiceIds.includes(beforeLast)) return beforeLast;
  return voiceIds.find((id) => id !== last) ?? last ?? voiceIds[0] ?? '';
}

/** The lines with the one at `index` moved by `offset` places (kept inside the list); the same list if not. */
export function moveLine<T>(lines: readonly T[], index: number, offset: number): T[] {
  const to = Math.min(lines.length - 1, Math.max(0, index + offset));
  if (index < 0 || index >= lines.length || to === index) return [...lines];
  const next = [...lines];
  const [line] = next.splice(index, 1);
  next.splice(to, 0, line as T);
  return next;
}

/** The characters charged for a dialogue: every line's text, as sent (empty lines are not sent). */
export function countDialogueCharacters(lines: readonly DialogueLine[]): number {
  return linesToSend(lines).reduce((sum, line) => sum + line.text.length, 0);
}

/**
 * The `inputs` of a generation: the lines with text, in order, their audio tags normalised
 * (history/voices §5); empty lines are left out as they are when the dialogue is stored.
 */
export function linesToSend(lines: readonly DialogueLine[]): DialogueLine[] {
  return lines
    .filter((line) => line.text.trim() !== '')
    .map((line) => ({ text: normalizeAudioTags(line.text), voice_id: line.voice_id }));
}
