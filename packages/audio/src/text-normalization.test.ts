import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ENGINE_TEXT, normalizeEnglish, splitSentences, toOriginalRange } from './text-normalization';

const say = (text: string) => normalizeEnglish(text).text;

describe('English text normalisation (issue 4)', () => {
  it.each([
    ['It costs $5.', 'It costs five dollars.'],
    ['Pay $1.', 'Pay one dollar.'],
    ['That is $5.50 each.', 'That is five dollars and fifty cents each.'],
    ['Only $0.99!', 'Only ninety-nine cents!'],
    ['A £3 fee and €2.5 million.', 'A three pounds fee and two point five million euros.'],
    ['Up 50% today', 'Up fifty percent today'],
    ['The 1st and 22nd and 103rd', 'The first and twenty-second and one hundred third'],
    ['Meet at 3:30.', 'Meet at three thirty.'],
    ['Meet at 3:05 pm.', 'Meet at three oh five p m.'],
    ['Meet at 10:00.', "Meet at ten o'clock."],
    ['On 2024-05-31 we ship.', 'On May thirty-first, twenty twenty-four we ship.'],
    ['On 5/31/2024 we ship.', 'On May thirty-first, twenty twenty-four we ship.'],
    ['On May 31, 2024 we ship.', 'On May thirty-first, twenty twenty-four we ship.'],
    ['Since Jan 5 it rained.', 'Since January fifth it rained.'],
    ['In 1999 and 2005.', 'In nineteen ninety-nine and two thousand five.'],
    [
      'We sold 1,234 units, about 3.14 each.',
      'We sold one thousand two hundred thirty-four units, about three point one four each.',
    ],
    ['It is -5 outside.', 'It is minus five outside.'],
    ['Run 5 km and lift 2 kg.', 'Run five kilometers and lift two kilograms.'],
    ['Mr. Smith met Dr. Jones on Main St. today.', 'Mister Smith met Doctor Jones on Main Street today.'],
    ['Fruit, e.g. apples, etc.', 'Fruit, for example apples, et cetera'],
    ['Ticket No. 7', 'Ticket number seven'],
  ])('%s', (input, spoken) => expect(say(input)).toBe(spoken));

  it('leaves text without numbers or abbreviations as it is', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z ,!?']{0,60}$/), (text) => {
        expect(say(text)).toBe(text);
      }),
    );
  });

  it('maps a spoken range back onto the characters written', () => {
    const normalized = normalizeEnglish('It costs $5 today.');
    const at = normalized.text.indexOf('five dollars');
    expect(toOriginalRange(normalized, at, at + 'five dollars'.length)).toEqual({ start: 9, end: 11 });
    const today = normalized.text.indexOf('today');
    expect(toOriginalRange(normalized, today, today + 5)).toEqual({ start: 12, end: 17 });
  });
});

describe('sentence splitting', () => {
  it('splits after . ! ? but not after abbreviations, initials or decimals', () => {
    const text = 'Mr. Smith paid 3.50 dollars. Really? Yes! J. R. R. Tolkien wrote it.';
    expect(splitSentences(text).map((r) => text.slice(r.start, r.end))).toEqual([
      'Mr. Smith paid 3.50 dollars.',
      'Really?',
      'Yes!',
      'J. R. R. Tolkien wrote it.',
    ]);
  });

  it('keeps every non-space character in exactly one sentence', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const covered = splitSentences(text)
          .map((r) => text.slice(r.start, r.end))
          .join('');
        expect(covered.replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      }),
    );
  });
});

describe('the bound on one engine call (MAX_ENGINE_TEXT)', () => {
  const weight = (piece: string) =>
    [...piece.matchAll(/\S{21,}|\s+|\S{1,20}/g)].reduce(
      (sum, [run]) => sum + (run.length > 20 && /\S/.test(run) ? 2 * run.length : run.length),
      0,
    );

  it('leaves a sentence within the bound whole', () => {
    const text = 'A sentence of ordinary length, with a comma. And another one!';
    expect(splitSentences(text).map((r) => text.slice(r.start, r.end))).toEqual([
      'A sentence of ordinary length, with a comma.',
      'And another one!',
    ]);
  });

  it('cuts text without sentence punctuation at clause marks first, then at spaces', () => {
    const clauses = `${'one two three four five six seven eight nine ten, '.repeat(4)}end`;
    const pieces = splitSentences(clauses).map((r) => clauses.slice(r.start, r.end));
    expect(pieces.every((p) => p.length <= MAX_ENGINE_TEXT)).toBe(true);
    expect(pieces.slice(0, -1).every((p) => p.endsWith(','))).toBe(true);
    const words = 'the quick brown fox jumps over a lazy dog '.repeat(250);
    const spoken = splitSentences(words).map((r) => words.slice(r.start, r.end));
    expect(spoken.length).toBeGreaterThan(words.length / MAX_ENGINE_TEXT);
    expect(spoken.every((p) => p.length <= MAX_ENGINE_TEXT)).toBe(true);
    expect(spoken.join(' ')).toBe(words.trim());
  });

  it('counts a long unbroken run double and cuts it at the bound', () => {
    const text = `Hello. ${'a'.repeat(5000)} end.`;
    const pieces = splitSentences(text).map((r) => text.slice(r.start, r.end));
    expect(pieces[0]).toBe('Hello.');
    expect(pieces.every((p) => weight(p) <= MAX_ENGINE_TEXT)).toBe(true);
    expect(pieces.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
  });

  it('never gives an engine more than the bound, and loses no character, for any text', () => {
    const token = fc.oneof(
      fc.constantFrom('word', 'a', 'sentence.', 'clause,', '—', 'x'.repeat(30), '3.14', 'Mr.', '😀'),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 300 }), fc.constantFrom(' ', '  ', '\n'), (tokens, space) => {
        const text = tokens.join(space);
        const ranges = splitSentences(text);
        let last = 0;
        for (const { start, end } of ranges) {
          expect(start).toBeGreaterThanOrEqual(last);
          expect(weight(text.slice(start, end))).toBeLessThanOrEqual(MAX_ENGINE_TEXT);
          last = end;
        }
        const covered = ranges.map((r) => text.slice(r.start, r.end)).join('');
        expect(covered.replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      }),
    );
  });
});
