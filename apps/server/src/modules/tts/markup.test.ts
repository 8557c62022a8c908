import { identityNormalization } from '@parla/audio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findMarkup, MAX_BREAK_MS, MarkupError, normalizeMarkup } from './markup';

const problem = (text: string) => {
  try {
    findMarkup(text);
  } catch (error) {
    if (error instanceof MarkupError) return error.message;
    throw error;
  }
  return undefined;
};

describe('break and phoneme tags', () => {
  it('reads breaks in seconds and milliseconds, up to 3 s', () => {
    expect(findMarkup('Wait <break time="1.5s" /> now <break time=\'250ms\'/>.')).toEqual([
      { kind: 'break', start: 5, end: 26, pauseMs: 1500 },
      { kind: 'break', start: 31, end: 52, pauseMs: 250 },
    ]);
    expect(problem(`A <break time="${MAX_BREAK_MS / 1000 + 0.5}s" /> b`)).toBe(
      'A <break> is at most 3 seconds long.',
    );
    expect(problem('A <break /> b')).toBe('A <break> needs a time such as time="1.5s" or time="500ms".');
    expect(problem('A <break time="soon" /> b')).toMatch(/needs a time/);
    expect(problem('A <break strength="x" time="1s" /> b')).toBe(
      'A <break> takes only a time, not strength.',
    );
    expect(problem('A </break> b')).toMatch(/closes nothing/);
  });

  it('checks a phoneme tag’s alphabet, pronunciation and word', () => {
    const ok =
      '<phoneme alphabet="cmu-arpabet" ph="M AE1 D IH0 S AH0 N">Madison</phoneme> and <phoneme alphabet="ipa" ph="ˈæktʃuəli">actually</phoneme>';
    expect(findMarkup(ok).map((t) => t.kind)).toEqual(['phoneme', 'phoneme']);
    expect(problem('<phoneme alphabet="ipa" ph="aaa">x')).toBe(
      'A <phoneme> tag is not closed with </phoneme>.',
    );
    expect(problem('<phoneme alphabet="klingon" ph="aa">x</phoneme>')).toMatch(/is not supported/);
    expect(problem('<phoneme ph="aa">x</phoneme>')).toMatch(/needs alphabet=/);
    expect(problem('<phoneme alphabet="ipa">x</phoneme>')).toMatch(/needs a pronunciation/);
    expect(problem('<phoneme alphabet="cmu-arpabet" ph="M XX1">x</phoneme>')).toBe(
      '"XX1" is not a CMU ARPAbet phone.',
    );
    expect(problem('<phoneme alphabet="ipa" ph="a<b">x</phoneme>')).toMatch(/not closed|not IPA/);
    expect(problem('<phoneme alphabet="ipa" ph="hello{}">x</phoneme>')).toBe(
      'The <phoneme> pronunciation has characters that are not IPA.',
    );
    expect(problem(`<phoneme alphabet="ipa" ph="${'a'.repeat(101)}">x</phoneme>`)).toBe(
      'A <phoneme> pronunciation is at most 100 characters long; this one has 101.',
    );
    expect(problem(`<phoneme alphabet="ipa" ph="a">${'x'.repeat(51)}</phoneme>`)).toMatch(
      /at most 50 characters/,
    );
    expect(problem('<phoneme alphabet="ipa" ph="a"></phoneme>')).toMatch(/needs the word/);
    expect(problem('<phoneme alphabet="ipa" ph="a" />')).toMatch(/needs its word inside it/);
    expect(problem('<phoneme alphabet="ipa" ph="a" lang="en">x</phoneme>')).toMatch(/not lang/);
    expect(problem('<phoneme alphabet="ipa" alphabet="ipa" ph="a">x</phoneme>')).toMatch(/twice/);
  });

  it('refuses nesting and stray closings', () => {
    expect(
      problem('<phoneme alphabet="ipa" ph="a"><phoneme alphabet="ipa" ph="b">x</phoneme></phoneme>'),
    ).toBe('A <phoneme> tag cannot stand inside another.');
    expect(problem('<phoneme alphabet="ipa" ph="a">x <break time="1s"/></phoneme>')).toMatch(
      /cannot stand inside/,
    );
    expect(problem('word</phoneme>')).toBe('A </phoneme> closes no <phoneme> tag.');
  });

  it('refuses the probe’s 5,000-character pronunciation before any engine sees it', () => {
    const hostile = `<phoneme alphabet="ipa" ph="${'a'.repeat(5000)}">x</phoneme>`;
    expect(problem(hostile)).toMatch(/at most 100 characters/);
  });

  it('leaves other angle brackets as text', () => {
    expect(
      findMarkup('a < b and c > d, <speak>hi</speak>, <breakfast>, <break-even>, <phoneme_list>'),
    ).toEqual([]);
  });

  it('takes at most 50 breaks in one text', () => {
    expect(findMarkup('a<break time="3s"/>'.repeat(50))).toHaveLength(50);
    expect(problem('a<break time="3s"/>'.repeat(51))).toBe('A text may hold at most 50 <break> tags.');
  });

  it('speaks a phoneme tag’s word and makes a break a pause between the words', () => {
    const text = 'Say <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme> then<break time="1s"/>stop.';
    const normalized = normalizeMarkup(text, identityNormalization);
    expect(normalized.text).toBe('Say tomato then stop.');
    const pause = normalized.segments.find((s) => s.tags);
    expect(pause?.tags?.[0]?.effect.pauseMs).toBe(1000);
    expect(text.slice(pause?.start, pause?.end)).toBe('<break time="1s"/>');
  });

  it('never throws anything but a MarkupError, whatever the text', () => {
    const piece = fc.constantFrom(
      '<phoneme alphabet="ipa" ph="a">',
      '</phoneme>',
      '<break time="1s"/>',
      '<break',
      '<',
      '>',
      'word ',
      '"',
      '<phoneme',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        try {
          const normalized = normalizeMarkup(text, identityNormalization);
          expect(normalized.text).not.toMatch(/<\s*\/?\s*(phoneme|break)(?=[\s/<>]|$)/i);
        } catch (error) {
          expect(error).toBeInstanceOf(MarkupError);
        }
      }),
    );
  });
});
