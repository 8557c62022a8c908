import { describe, expect, it } from 'vitest';
import { spokenLanguage } from './moonshine-stt';
import { whisperWindows } from './whisper-engine';
import { assignToSegments, dropRepeats, wordCap, wordsFromTokens } from './whisper-words';

const SR = 16_000;

describe('wordsFromTokens', () => {
  // As sherpa-onnx gave them for Kokoro/eSpeak Spanish (research 29 §4).
  const tokens = [' Buenos', ' días', ',', ' me', ' ll', 'amo', ' Carlos', '.'];
  const starts = [0, 0.3, 0.62, 1.1, 1.18, 1.28, 1.42, 1.76];
  const text = 'Buenos días, me llamo Carlos.';

  it('joins tokens into words at the spaces, punctuation and word pieces kept with their word', () => {
    const words = wordsFromTokens(tokens, starts, text, 2.2);
    expect(words?.map((w) => w.text)).toEqual(['Buenos', 'días,', 'me', 'llamo', 'Carlos.']);
    expect(words?.map((w) => w.start)).toEqual([0, 0.3, 1.1, 1.18, 1.42]);
  });

  it('ends a word where the next starts, but not across a pause, and the last one by the speech end', () => {
    const words = wordsFromTokens(tokens, starts, text, 2.2) ?? [];
    expect(words[0]?.end).toBe(0.3);
    // "días," starts at 0.3 and the next word at 1.1: a 4-letter word is capped at 0.48 s.
    expect(words[1]?.end).toBeCloseTo(0.3 + wordCap('días,'), 5);
    expect(words[1]?.end).toBeLessThan(1.1);
    expect(words[4]?.end).toBeCloseTo(Math.min(2.2, 1.42 + wordCap('Carlos.')), 5);
    for (const w of words) expect(w.end).toBeGreaterThan(w.start);
  });

  it('keeps starts in order when a token time goes back', () => {
    const words = wordsFromTokens([' a', ' b', ' c'], [0.5, 0.4, 0.9], 'a b c', 1.2) ?? [];
    expect(words.map((w) => w.start)).toEqual([0.5, 0.5, 0.9]);
  });

  it('gives up (null) when the tokens do not spell the text or have no times', () => {
    expect(wordsFromTokens([' Hola', ' \uFFFD'], [0, 0.5], 'Hola \uFFFD', 1)).toBeNull();
    expect(wordsFromTokens([' Hola'], [0], 'Adiós', 1)).toBeNull();
    expect(wordsFromTokens([' Hola'], [], 'Hola', 1)).toBeNull();
    expect(wordsFromTokens([], [], '', 1)).toBeNull();
  });
});

describe('dropRepeats', () => {
  const words = (s: string) => s.split(' ').map((text) => ({ text }));
  const texts = (w: { text: string }[]) => w.map((x) => x.text).join(' ');

  it("cuts Whisper's loops to three copies", () => {
    expect(texts(dropRepeats(words('O O O O O O O O')))).toBe('O O O');
    expect(
      texts(dropRepeats(words('I am your friend. I am your friend. I am your friend. I am your friend.'))),
    ).toBe('I am your friend. I am your friend. I am your friend.');
  });

  it('keeps ordinary repetition and different words', () => {
    expect(texts(dropRepeats(words('no, no, no. Hoy vamos a hablar')))).toBe(
      'no, no, no. Hoy vamos a hablar',
    );
    expect(texts(dropRepeats(words('de la comida de la casa')))).toBe('de la comida de la casa');
  });
});

describe('assignToSegments', () => {
  it('gives each word to the last segment that starts at or before it, the first taking earlier words', () => {
    const words = [{ start: 0.05 }, { start: 1.2 }, { start: 3.1 }, { start: 3.5 }];
    expect(assignToSegments(words, [0.1, 3.0])).toEqual([
      [{ start: 0.05 }, { start: 1.2 }],
      [{ start: 3.1 }, { start: 3.5 }],
    ]);
    expect(assignToSegments([], [0, 1])).toEqual([[], []]);
  });
});

describe('whisperWindows', () => {
  it('decodes consecutive segments together while the window stays within 28 s', () => {
    const windows = whisperWindows([
      { start: 1 * SR, end: 5 * SR },
      { start: 6 * SR, end: 20 * SR },
      { start: 21 * SR, end: 27 * SR },
      { start: 30 * SR, end: 40 * SR },
    ]);
    expect(windows.length).toBe(2);
    for (const w of windows) expect(w.to - w.from).toBeLessThanOrEqual(28 * SR);
    expect(windows[0]?.from).toBeLessThanOrEqual(1 * SR);
    expect(windows[1]?.to).toBeGreaterThanOrEqual(40 * SR);
  });

  it('cuts a segment longer than a window into windows that cover it without overlap', () => {
    const windows = whisperWindows([{ start: 0, end: 70 * SR }]);
    expect(windows.length).toBe(3);
    for (let i = 1; i < windows.length; i += 1) expect(windows[i]?.from).toBe(windows[i - 1]?.to);
    expect(windows.at(-1)?.to).toBeGreaterThanOrEqual(70 * SR);
  });
});

describe('spokenLanguage', () => {
  it('answers the language asked for with probability 1, as ISO 639-3', () => {
    expect(spokenLanguage({ model: 'multilingual', language: 'es' }, [{ code: 'fr', weight: 1 }])).toEqual({
      languageCode: 'spa',
      languageProbability: 1,
    });
  });

  it('takes the language most of the speech was heard in, its share as the probability', () => {
    expect(
      spokenLanguage({ model: 'multilingual' }, [
        { code: 'es', weight: 30 },
        { code: 'en', weight: 10 },
      ]),
    ).toEqual({ languageCode: 'spa', languageProbability: 0.75 });
  });

  it('says English with probability 0 when the multilingual model heard nothing, 1 for the English models', () => {
    expect(spokenLanguage({ model: 'multilingual' }, [])).toEqual({
      languageCode: 'eng',
      languageProbability: 0,
    });
    expect(spokenLanguage({ model: 'fast' }, [])).toEqual({ languageCode: 'eng', languageProbability: 1 });
  });
});
