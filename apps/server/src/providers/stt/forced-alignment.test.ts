import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import {
  ALIGNMENT_SENTENCES,
  boundaryErrors,
  type KnownSpeech,
  knownSpeech,
  quantile,
} from '../../test/alignment-test-speech';
import { alignTextToAudio } from './forced-alignment';
import { checkAlignmentLimits, MAX_ALIGNMENT_WORDS } from './stt-provider';

/** Sentences joined with pauses of 0.4–0.9 s (and 0.7 s of silence first), their word times moved along. */
function joinSpeech(parts: readonly KnownSpeech[]): KnownSpeech {
  const rate = 16_000;
  const pauses = parts.map((_, i) => Math.round((0.4 + ((i * 0.37) % 0.5)) * rate));
  const lead = Math.round(0.7 * rate);
  const length = parts.reduce((n, p, i) => n + p.samples.length + (pauses[i] as number), lead);
  const samples = new Float32Array(length);
  const words: string[] = [];
  const truth: { start: number; end: number }[] = [];
  let at = lead;
  for (const [i, part] of parts.entries()) {
    samples.set(part.samples, at);
    words.push(...part.words);
    for (const t of part.truth) truth.push({ start: t.start + at / rate, end: t.end + at / rate });
    at += part.samples.length + (pauses[i] as number);
  }
  return { voice: parts.map((p) => p.voice).join('+'), samples, words, truth };
}

describe('alignTextToAudio', () => {
  it('aligns a text of several sentences to a 30–40 s recording (two passes), within 80 ms (median)', async () => {
    const parts: KnownSpeech[] = [];
    for (const text of ALIGNMENT_SENTENCES) parts.push(await knownSpeech('flite-kal16', text));
    for (const text of ALIGNMENT_SENTENCES.slice(0, 2)) parts.push(await knownSpeech('flite-awb', text));
    const speech = joinSpeech(parts);
    const text = speech.words.join(' ');
    const duration = speech.samples.length / 16_000;
    expect(duration).toBeGreaterThan(30);
    const result = await alignTextToAudio(speech.samples, `  ${text}\n`);
    expect(result.words.map((w) => w.text)).toEqual(speech.words);
    expect(result.characters.map((c) => c.text).join('')).toBe(`  ${text}\n`);
    for (const [i, c] of result.characters.entries()) {
      expect(c.end).toBeGreaterThanOrEqual(c.start);
      expect(c.start).toBeGreaterThanOrEqual((result.characters[i - 1]?.start ?? 0) - 1e-9);
    }
    const errors = boundaryErrors(result.words, speech.truth);
    console.log(
      `forced alignment of ${duration.toFixed(1)} s, ${speech.words.length} words: median ${Math.round(quantile(errors, 0.5) * 1000)} ms, p90 ${Math.round(quantile(errors, 0.9) * 1000)} ms, loss ${result.loss}`,
    );
    expect(quantile(errors, 0.5)).toBeLessThanOrEqual(0.08);
    // A word before a pause can run on into it (see the report's limits): the tail stays bounded.
    expect(quantile(errors, 0.9)).toBeLessThanOrEqual(0.15);
    expect(Math.max(...errors)).toBeLessThan(1.5);
    expect(result.loss).toBeGreaterThan(0);
    expect(result.loss).toBeLessThanOrEqual(1);
  }, 180_000);

  it('refuses no words, too many words and over 10 minutes of audio with a 422 on the field', async () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof AppError
          ? { code: error.code, status: error.status, loc: error.errors?.[0]?.loc }
          : error;
      }
      return undefined;
    };
    expect(refusal(() => checkAlignmentLimits(5, ' \n '))).toEqual({
      code: 'invalid_request',
      status: 422,
      loc: ['body', 'text'],
    });
    expect(refusal(() => checkAlignmentLimits(5, 'word '.repeat(MAX_ALIGNMENT_WORDS + 1)))).toMatchObject({
      loc: ['body', 'text'],
    });
    expect(refusal(() => checkAlignmentLimits(600.5, 'hello'))).toMatchObject({ loc: ['body', 'file'] });
    expect(refusal(() => checkAlignmentLimits(600, 'word '.repeat(MAX_ALIGNMENT_WORDS)))).toBeUndefined();
    await expect(alignTextToAudio(new Float32Array(16_000 * 601), 'hello')).rejects.toThrow(/10 minutes/);
  });
});
