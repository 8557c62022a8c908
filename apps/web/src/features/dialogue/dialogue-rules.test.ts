import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canAddLine,
  countDialogueCharacters,
  linesToSend,
  moveLine,
  nextLineVoice,
  toDraftLines,
  toStoredLines,
} from './dialogue-rules';

const line = (text: string, voice_id = 'a') => ({ text, voice_id });

describe('dialogue rules', () => {
  it('a new line answers the line before last, else takes another voice', () => {
    const voices = ['a', 'b', 'c'];
    expect(nextLineVoice([], voices)).toBe('a');
    expect(nextLineVoice([line('Hi', 'a')], voices)).toBe('b');
    expect(nextLineVoice([line('Hi', 'b')], voices)).toBe('a');
    expect(nextLineVoice([line('Hi', 'a'), line('Yo', 'c')], voices)).toBe('a');
    // The same voice twice in a row: another voice answers.
    expect(nextLineVoice([line('Hi', 'a'), line('Yo', 'a')], voices)).toBe('b');
    // A voice no longer offered is not picked again.
    expect(nextLineVoice([line('Hi', 'gone'), line('Yo', 'a')], voices)).toBe('b');
    expect(nextLineVoice([line('Hi', 'a')], ['a'])).toBe('a');
    expect(nextLineVoice([], [])).toBe('');
  });

  it('moves a line within the list and never loses or duplicates one', () => {
    expect(moveLine(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveLine(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveLine(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveLine(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 10 }),
        fc.integer({ min: -2, max: 12 }),
        fc.integer({ min: -3, max: 3 }),
        (list, index, offset) => {
          const moved = moveLine(list, index, offset);
          expect([...moved].sort()).toEqual([...list].sort());
          // Moving back puts it where it was.
          if (index >= 0 && index < list.length) {
            const to = Math.min(list.length - 1, Math.max(0, index + offset));
            expect(moveLine(moved, to, index - to)).toEqual(list);
          }
        },
      ),
    );
  });

  it('sends the lines with text, in order, their tags normalised, and counts their characters', () => {
    const lines = [line('Hello   [ laughs ]  there', 'a'), line('   ', 'b'), line('Bye.', 'c')];
    expect(linesToSend(lines)).toEqual([line('Hello [laughs] there', 'a'), line('Bye.', 'c')]);
    expect(countDialogueCharacters(lines)).toBe('Hello [laughs] there'.length + 4);
  });

  it('stores text and voice only, and stops adding at 50 lines', () => {
    const drafts = toDraftLines([line('One'), line('Two', 'b')]);
    expect(new Set(drafts.map((d) => d.key)).size).toBe(2);
    expect(toStoredLines(drafts)).toEqual([line('One'), line('Two', 'b')]);
    expect(canAddLine(new Array(49))).toBe(true);
    expect(canAddLine(new Array(50))).toBe(false);
  });
});
