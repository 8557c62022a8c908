import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachmentDisposition, parseRange } from './send-file';

describe('parseRange (RFC 9110 single byte ranges)', () => {
  it('reads the three forms, clamped to the file', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('serves the whole file for no header, several ranges or other units', () => {
    expect(parseRange(undefined, 1000)).toBeUndefined();
    expect(parseRange('bytes=0-1,5-6', 1000)).toBeUndefined();
    expect(parseRange('items=0-1', 1000)).toBeUndefined();
    expect(parseRange('bytes=-', 1000)).toBeUndefined();
    expect(parseRange('bytes=9-3', 1000)).toBeUndefined();
  });

  it('calls a range past the end unsatisfiable', () => {
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });

  it('never answers a range outside the file', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), fc.integer({ min: 1, max: 10_000 }), (a, b, size) => {
        for (const header of [`bytes=${a}-${b}`, `bytes=${a}-`, `bytes=-${b}`]) {
          const range = parseRange(header, size);
          if (range && range !== 'unsatisfiable') {
            expect(range.start).toBeGreaterThanOrEqual(0);
            expect(range.end).toBeLessThan(size);
            expect(range.start).toBeLessThanOrEqual(range.end);
          }
        }
      }),
    );
  });
});

/** RFC 5987 §3.2.1 attr-char: what may stand unencoded in an ext-value. */
const ATTR_CHARS = /^[A-Za-z0-9!#$&+.^_`|~%-]*$/;

describe('attachmentDisposition (RFC 6266, RFC 5987)', () => {
  it('keeps every letter in filename* and transliterates the ASCII fallback (issue 26: "Lucía", not "Luca")', () => {
    expect(attachmentDisposition('Parla_Lucía.mp3')).toBe(
      `attachment; filename="Parla_Lucia.mp3"; filename*=UTF-8''Parla_Luc%C3%ADa.mp3`,
    );
    expect(attachmentDisposition('Straße Øre Jürgen.txt')).toBe(
      `attachment; filename="Strasse Ore Jurgen.txt"; filename*=UTF-8''Stra%C3%9Fe%20%C3%98re%20J%C3%BCrgen.txt`,
    );
    // No Latin form: the fallback keeps the extension, the UTF-8 name keeps the letters.
    expect(attachmentDisposition('Интервью.pdf')).toBe(
      `attachment; filename="________.pdf"; filename*=UTF-8''${encodeURIComponent('Интервью')}.pdf`,
    );
    expect(attachmentDisposition('Lucía.mp3', 'inline')).toMatch(/^inline; filename="Lucia.mp3"; /);
  });

  it('escapes what RFC 5987 does not allow in a value, and quotes and backslashes in the fallback', () => {
    expect(attachmentDisposition(`it's (a) "take"*\\.mp3`)).toBe(
      `attachment; filename="it's (a) _take_*_.mp3"; filename*=UTF-8''it%27s%20%28a%29%20%22take%22%2A%5C.mp3`,
    );
  });

  it('gives a header any name reads back from, with an ASCII fallback', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (name) => {
        const header = attachmentDisposition(name);
        const match = /^attachment; filename="([^"\\]*)"; filename\*=UTF-8''(.*)$/.exec(header);
        expect(match, header).not.toBeNull();
        expect(match?.[1]).toMatch(/^[\x20-\x7e]*$/);
        expect(match?.[2]).toMatch(ATTR_CHARS);
        expect(decodeURIComponent(match?.[2] ?? '')).toBe(name);
      }),
    );
  });

  it('survives a name with a lone surrogate (a JSON string may hold one)', () => {
    expect(attachmentDisposition('a\uD800b.txt')).toBe(
      `attachment; filename="a_b.txt"; filename*=UTF-8''a%EF%BF%BDb.txt`,
    );
  });
});
