import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DIALOGUE_MAX_LINES,
  type DialogueLine,
  findBracketedTags,
  hasBracketedTag,
  normalizeAudioTags,
  parseStoredDialogue,
  TextToDialogueBody,
} from './dialogue';

/** Texts built from the characters the rules care about, so brackets, spaces and line breaks meet often. */
const tagText = fc.string({
  unit: fc.constantFrom('[', ']', ' ', '  ', '\t', '\n', '\r', '\u00a0', 'a', 'b', 'laughs', '.'),
  maxLength: 40,
});
const anyText = fc.oneof(tagText, fc.string({ unit: 'binary', maxLength: 60 }));
const withoutSpace = (text: string) => text.replace(/\s/g, '');
const lineBreaks = (text: string) => text.replace(/[^\n\r]/g, '');

describe('normalizeAudioTags (history/voices §5 "Dialogue")', () => {
  it.each([
    ['[  laughs  ]', '[laughs]'],
    ['Hello   [laughs]   there', 'Hello [laughs] there'],
    ['Hi\t[whispers]\u00a0there', 'Hi [whispers] there'],
    ['[ soft \t  laugh ]', '[soft laugh]'],
    ['[a]    [b]', '[a] [b]'],
    ['[a][b]', '[a][b]'],
    ['Hi[laughs]there', 'Hi[laughs]there'],
    // Nested brackets are one tag, kept whole, with the same rule inside.
    ['[a [b] c]', '[a [b] c]'],
    ['[ a  [  b ]  c ]', '[a [b] c]'],
    ['x  [[whispers]]  y', 'x [[whispers]] y'],
    // A newline splits a bracket: no tag, nothing changes.
    ['[a\nb]', '[a\nb]'],
    ['Hi   [a\r\nb]   x', 'Hi   [a\r\nb]   x'],
    // A "[" that never closes on its line opens no tag; the tag after it is one.
    ['[a   [ b ]', '[a [b]'],
    ['one ]  [two', 'one ]  [two'],
    // A line break stays; only the runs beside the tag collapse.
    ['Hi  \n  [laughs]  \n  there', 'Hi  \n [laughs] \n  there'],
    ['   [laughs] Hi', ' [laughs] Hi'],
    ['[]', '[]'],
    ['[   ]', '[]'],
    ['No tags here,   just   text.', 'No tags here,   just   text.'],
  ])('%j → %j', (text, expected) => {
    expect(normalizeAudioTags(text)).toBe(expected);
  });

  it('never throws, and normalising twice changes nothing more', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const once = normalizeAudioTags(text);
        expect(normalizeAudioTags(once)).toBe(once);
      }),
    );
  });

  it('never changes a text without a tag', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        if (!hasBracketedTag(text)) expect(normalizeAudioTags(text)).toBe(text);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const noBracket = text.replace(/\[/g, '(');
        expect(normalizeAudioTags(noBracket)).toBe(noBracket);
      }),
    );
  });

  it('changes only whitespace, keeps every line break and keeps the same tags', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const out = normalizeAudioTags(text);
        expect(withoutSpace(out)).toBe(withoutSpace(text));
        expect(lineBreaks(out)).toBe(lineBreaks(text));
        expect(findBracketedTags(out)).toHaveLength(findBracketedTags(text).length);
        expect(out.length).toBeLessThanOrEqual(text.length);
      }),
    );
  });

  it('leaves tags single-spaced inside, with no space next to their brackets', () => {
    fc.assert(
      fc.property(tagText, (text) => {
        const out = normalizeAudioTags(text);
        for (const { start, end } of findBracketedTags(out)) {
          const tag = out.slice(start, end);
          expect(tag).not.toMatch(/\s\s|\[\s|\s\]|[^\S ]/);
        }
      }),
    );
  });

  it('leaves at most one space between a tag and its neighbours on the same line', () => {
    fc.assert(
      fc.property(tagText, (text) => {
        const out = normalizeAudioTags(text);
        for (const { start, end } of findBracketedTags(out)) {
          expect(out.slice(0, start)).not.toMatch(/[^\S\n\r]{2,}$/);
          expect(out.slice(end)).not.toMatch(/^[^\S\n\r]{2,}/);
        }
      }),
    );
  });
});

describe('hasBracketedTag (history/voices §5 keep-tags toggle)', () => {
  it.each([
    ['[laughs] hello', true],
    ['Hello [a [b] c] there', true],
    ['[]', true],
    ['plain text', false],
    ['[a\nb]', false],
    ['a ] b [ c', false],
    ['', false],
  ])('%j → %s', (text, expected) => {
    expect(hasBracketedTag(text)).toBe(expected);
  });

  it('is true exactly when some "[" closes on its own line', () => {
    fc.assert(
      fc.property(tagText, (text) => {
        const closesOnItsLine = text
          .split(/[\n\r]/)
          .some((line) => /\[/.test(line) && line.slice(line.indexOf('[')).includes(']'));
        expect(hasBracketedTag(text)).toBe(closesOnItsLine);
      }),
    );
  });
});

describe('parseStoredDialogue (history/voices §5 "Dialogue", §8)', () => {
  const line = (text: string, voice_id = 'v1'): DialogueLine => ({ text, voice_id });

  it.each([
    ['nothing stored', null],
    ['not JSON', 'not json'],
    ['truncated JSON', '[{"text":"Hi","voice_id":"v1"}'],
    ['an object', '{"text":"Hi","voice_id":"v1"}'],
    ['a list of numbers', '[1, 2]'],
    ['a line without a voice', '[{"text":"Hi"}]'],
    ['a text that is not a string', '[{"text":1,"voice_id":"v1"}]'],
    ['a null voice', '[{"text":"Hi","voice_id":null}]'],
    ['one bad line among good ones', '[{"text":"Hi","voice_id":"v1"}, 3]'],
    ['null', 'null'],
  ])('%s → an empty dialogue', (_, raw) => {
    expect(parseStoredDialogue(raw)).toEqual([]);
  });

  it('keeps text and voice_id of each line, drops empty lines and keeps at most 50', () => {
    expect(
      parseStoredDialogue(
        JSON.stringify([
          { text: 'Hi', voice_id: 'v1', id: 'x', extra: true },
          line(''),
          line('   \n'),
          line('[laughs] Hello', 'v2'),
        ]),
      ),
    ).toEqual([line('Hi'), line('[laughs] Hello', 'v2')]);
    const many = Array.from({ length: 60 }, (_, i) => line(`Line ${i}`));
    const kept = parseStoredDialogue(JSON.stringify(many));
    expect(kept).toHaveLength(DIALOGUE_MAX_LINES);
    expect(kept.at(-1)?.text).toBe('Line 49');
    // Empty lines are dropped before the 50 are counted.
    const padded = parseStoredDialogue(JSON.stringify([line(''), ...many]));
    expect(padded[0]?.text).toBe('Line 0');
    expect(padded).toHaveLength(DIALOGUE_MAX_LINES);
  });

  it('never throws, and gives at most 50 lines with text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.constant(null)), (raw) => {
        const lines = parseStoredDialogue(raw);
        expect(lines.length).toBeLessThanOrEqual(DIALOGUE_MAX_LINES);
        for (const l of lines) expect(l.text.trim()).not.toBe('');
      }),
    );
  });

  it('reads back what the editor stored, minus empty lines, up to 50', () => {
    const stored = fc.array(fc.record({ text: fc.string(), voice_id: fc.string() }), { maxLength: 70 });
    fc.assert(
      fc.property(stored, (lines) => {
        expect(parseStoredDialogue(JSON.stringify(lines))).toEqual(
          lines.filter((l) => l.text.trim() !== '').slice(0, DIALOGUE_MAX_LINES),
        );
      }),
    );
  });
});

describe('TextToDialogueBody (the public API body, history/voices §9)', () => {
  const inputs = (n: number, voices = 2) =>
    Array.from({ length: n }, (_, i) => ({ text: `Line ${i}.`, voice_id: `voice${i % voices}` }));

  it('takes 1 to 50 lines with text and defaults to eleven_v3', () => {
    expect(TextToDialogueBody.parse({ inputs: inputs(1) }).model_id).toBe('eleven_v3');
    expect(TextToDialogueBody.safeParse({ inputs: inputs(50) }).success).toBe(true);
    expect(TextToDialogueBody.safeParse({ inputs: [] }).success).toBe(false);
    expect(TextToDialogueBody.safeParse({ inputs: inputs(51) }).success).toBe(false);
    expect(TextToDialogueBody.safeParse({ inputs: [{ text: '  ', voice_id: 'v' }] }).success).toBe(false);
    expect(TextToDialogueBody.safeParse({ inputs: [{ text: 'Hi', voice_id: 3 }] }).success).toBe(false);
    expect(TextToDialogueBody.safeParse({ inputs: 'Hi' }).success).toBe(false);
  });

  it('takes at most 10 different voices', () => {
    expect(TextToDialogueBody.safeParse({ inputs: inputs(20, 10) }).success).toBe(true);
    expect(TextToDialogueBody.safeParse({ inputs: inputs(20, 11) }).success).toBe(false);
  });
});
