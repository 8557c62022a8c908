import { describe, expect, it } from 'vitest';
import {
  ALIGNMENT_SENTENCES,
  boundaryErrors,
  type KnownSpeech,
  knownSpeech,
  quantile,
} from '../../test/alignment-test-speech';
import { alignWords, evenSplit } from './word-alignment';

const ms = (seconds: number) => Math.round(seconds * 1000);

describe('alignWords', () => {
  it('places words within 80 ms (median) of their true boundaries on TTS speech, far better than an even split', async () => {
    const errors: number[] = [];
    const naive: number[] = [];
    // Three voices of different pitch and pace: Festival's HTS slt, flite's awb (a man) and kal16.
    for (const voice of ['festival-slt', 'flite-awb', 'flite-kal16'] as const) {
      const mine: number[] = [];
      for (const text of ALIGNMENT_SENTENCES.slice(0, 3)) {
        const speech = await knownSpeech(voice, text);
        const result = await alignWords(speech.samples, speech.words, { characters: false });
        expect(result.words).toHaveLength(speech.words.length);
        mine.push(...boundaryErrors(result.words, speech.truth));
        naive.push(
          ...boundaryErrors(evenSplit(speech.words, 0, speech.samples.length / 16_000), speech.truth),
        );
      }
      errors.push(...mine);
      console.log(
        `${voice}: median ${ms(quantile(mine, 0.5))} ms, p90 ${ms(quantile(mine, 0.9))} ms over ${mine.length / 2} words`,
      );
    }
    console.log(
      `all: median ${ms(quantile(errors, 0.5))} ms, p90 ${ms(quantile(errors, 0.9))} ms; even split median ${ms(quantile(naive, 0.5))} ms`,
    );
    expect(quantile(errors, 0.5)).toBeLessThanOrEqual(0.08);
    expect(quantile(errors, 0.5)).toBeLessThan(quantile(naive, 0.5) / 2);
  }, 180_000);

  let speech: KnownSpeech;
  it('gives ordered words inside the audio, characters covering each word, a low loss for the right words', async () => {
    speech = await knownSpeech('flite-slt', ALIGNMENT_SENTENCES[1]);
    const duration = speech.samples.length / 16_000;
    const result = await alignWords(speech.samples, speech.words, { characters: true });
    for (const [i, word] of result.words.entries()) {
      expect(word.start).toBeGreaterThanOrEqual(0);
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      expect(word.end).toBeLessThanOrEqual(duration);
      expect(word.start).toBeGreaterThanOrEqual(result.words[i - 1]?.end ?? 0);
      const characters = result.characters?.[i] ?? [];
      expect(characters).toHaveLength(Array.from(speech.words[i] ?? '').length);
      expect(characters[0]?.start).toBe(word.start);
      expect(characters.at(-1)?.end).toBeCloseTo(word.end, 3);
    }
    // "$25" is read "twenty-five dollars": it gets the time of those words, not a blink.
    const dollars = speech.words.indexOf('$25,');
    const price = result.words[dollars];
    expect((price?.end ?? 0) - (price?.start ?? 0)).toBeGreaterThan(0.5);
    // "it." ends the sentence: its comma-less neighbour "on" and it are apart from the price.
    expect(Math.abs((price?.start ?? 0) - (speech.truth[dollars]?.start ?? 0))).toBeLessThan(0.12);
    // The punctuation of "$25," takes no time.
    const comma = result.characters?.[dollars]?.at(-1);
    expect(comma?.end).toBe(comma?.start);
    // The same audio against other words fits worse than against its own.
    const mean = (losses: { loss: number }[]) => losses.reduce((s, w) => s + w.loss, 0) / losses.length;
    const wrong = await alignWords(speech.samples, ALIGNMENT_SENTENCES[3].split(' '), { characters: false });
    console.log(
      `loss: own words ${mean(result.words).toFixed(3)}, other words ${mean(wrong.words).toFixed(3)}`,
    );
    expect(mean(result.words)).toBeLessThan(mean(wrong.words));
  }, 60_000);

  it('answers nothing for no words, and evenly for audio too short to warp', async () => {
    expect(await alignWords(new Float32Array(16_000), [], { characters: true })).toEqual({
      words: [],
      characters: [],
    });
    const short = await alignWords(new Float32Array(100), ['hi', 'there'], { characters: false });
    expect(short.words).toHaveLength(2);
    expect(short.words.every((w) => w.loss === 1 && w.end <= 100 / 16_000)).toBe(true);
  });

  it('keeps a word eSpeak says nothing for in order, with no time of its own', async () => {
    const words = [
      'the',
      'old',
      '—',
      'lighthouse',
      'keeper',
      'climbed',
      'the',
      'stairs',
      'every',
      'evening,',
    ];
    const audio = await knownSpeech('flite-awb', ALIGNMENT_SENTENCES[0]);
    const result = await alignWords(audio.samples, words, { characters: false });
    expect(result.words).toHaveLength(words.length);
    const dash = result.words[2];
    expect(dash?.start).toBe(dash?.end);
    expect(dash?.start).toBeGreaterThanOrEqual(result.words[1]?.end ?? 0);
    expect(dash?.end).toBeLessThanOrEqual(result.words[3]?.start ?? 0);
  }, 60_000);
});
