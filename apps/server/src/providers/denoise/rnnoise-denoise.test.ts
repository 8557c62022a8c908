import type { PcmAudio } from '@parla/audio';
import { beforeAll, describe, expect, it } from 'vitest';
import { decibels, fliteSpeech, meanPower, TEN_SECONDS_OF_TEXT, whiteNoise } from '../../test/test-signals';
import { denoise } from './rnnoise-denoise';

/** Clean speech, and the same with white noise at 5 dB SNR (over the whole signal). */
let clean: PcmAudio;
let noisy: PcmAudio;

/** `clean` plus seeded white noise `snrDb` below it. */
function addNoise(audio: PcmAudio, snrDb: number, seed: number): PcmAudio {
  const noise = whiteNoise(audio.samples.length, seed);
  const scale = Math.sqrt(meanPower(audio.samples) / 10 ** (snrDb / 10));
  const samples = audio.samples.map((v, i) =>
    Math.max(-32768, Math.min(32767, Math.round(v + (noise[i] as number) * scale))),
  );
  return { ...audio, samples };
}

/** Frame start indices of 20 ms frames, split by the clean signal's level: silence and loud speech. */
function framesByLevel(audio: PcmAudio): { silent: number[]; speech: number[]; size: number } {
  const size = Math.round(audio.sampleRate * 0.02);
  const starts: number[] = [];
  for (let at = 0; at + size <= audio.samples.length; at += size) starts.push(at);
  const power = starts.map((at) => meanPower(audio.samples, at, at + size));
  const loudest = Math.max(...power);
  return {
    size,
    // 50 dB below the loudest frame: pauses, where only the noise is heard.
    silent: starts.filter((_, i) => (power[i] as number) < loudest * 1e-5),
    // Within 20 dB of the loudest: vowels and voiced consonants.
    speech: starts.filter((_, i) => (power[i] as number) > loudest * 1e-2),
  };
}

const powerOver = (samples: Int16Array, starts: number[], size: number) =>
  starts.reduce((sum, at) => sum + meanPower(samples, at, at + size), 0) / starts.length;

/** Signal-to-noise ratio of `test` against `reference`, in dB, at the best lag in ±`reach` samples. */
function snrAtBestLag(reference: Int16Array, test: Int16Array, reach: number): { snr: number; lag: number } {
  let best = { snr: Number.NEGATIVE_INFINITY, lag: 0 };
  for (let lag = -reach; lag <= reach; lag++) {
    let signal = 0;
    let error = 0;
    for (let i = reach; i < reference.length - reach; i++) {
      const r = reference[i] as number;
      signal += r * r;
      error += (r - (test[i + lag] as number)) ** 2;
    }
    const snr = decibels(signal / error);
    if (snr > best.snr) best = { snr, lag };
  }
  return best;
}

beforeAll(async () => {
  clean = await fliteSpeech('slt', TEN_SECONDS_OF_TEXT);
  noisy = addNoise(clean, 5, 7);
}, 60_000);

describe('denoise', () => {
  it('takes white noise at 5 dB SNR down by far more than 6 dB in the pauses and keeps the speech', async () => {
    const copy = noisy.samples.slice();
    const started = performance.now();
    const cleaned = await denoise(noisy);
    const seconds = (performance.now() - started) / 1000;
    expect(cleaned.sampleRate).toBe(clean.sampleRate);
    expect(cleaned.samples.length).toBe(clean.samples.length);

    const { silent, speech, size } = framesByLevel(clean);
    expect(silent.length).toBeGreaterThan(20);
    expect(speech.length).toBeGreaterThan(50);
    const noiseDrop = decibels(
      powerOver(noisy.samples, silent, size) / powerOver(cleaned.samples, silent, size),
    );
    const speechChange = decibels(
      powerOver(cleaned.samples, speech, size) / powerOver(clean.samples, speech, size),
    );
    // The opening pause too (RNNoise alone barely touched it: see PREROLL).
    const firstWord = speech[0] as number;
    const opening = silent.filter((at) => at < firstWord);
    expect(opening.length).toBeGreaterThan(3);
    const openingDrop = decibels(
      powerOver(noisy.samples, opening, size) / powerOver(cleaned.samples, opening, size),
    );
    const before = snrAtBestLag(clean.samples, noisy.samples, 0);
    const after = snrAtBestLag(clean.samples, cleaned.samples, 8);
    const audioSeconds = clean.samples.length / clean.sampleRate;
    console.info(
      `denoise: ${audioSeconds.toFixed(1)} s at ${clean.sampleRate} Hz in ${seconds.toFixed(2)} s ` +
        `(${(audioSeconds / seconds).toFixed(0)}× real time, first call, module load included); ` +
        `noise in pauses −${noiseDrop.toFixed(1)} dB (opening pause −${openingDrop.toFixed(1)} dB); loud speech ${speechChange.toFixed(2)} dB; ` +
        `SNR ${before.snr.toFixed(2)} → ${after.snr.toFixed(2)} dB at lag ${after.lag}`,
    );
    expect(noiseDrop).toBeGreaterThan(6);
    expect(openingDrop).toBeGreaterThan(6);
    expect(noisy.samples).toEqual(copy);
    expect(Math.abs(speechChange)).toBeLessThan(3);
    expect(after.snr).toBeGreaterThan(before.snr + 5);
    // The output lines up with the input (RNNoise's one-frame delay is taken out).
    expect(Math.abs(after.lag)).toBeLessThanOrEqual(2);
  });

  it('works at 48 kHz without resampling, at tens of times real time', async () => {
    const speech48: PcmAudio = {
      sampleRate: 48_000,
      channels: 1,
      // Each sample three times: a crude 48 kHz copy, enough to time and to level-check.
      samples: Int16Array.from(
        { length: noisy.samples.length * 3 },
        (_, i) => noisy.samples[Math.floor(i / 3)] as number,
      ),
    };
    await denoise({ ...speech48, samples: speech48.samples.subarray(0, 4800) }); // the module is loaded
    const started = performance.now();
    const cleaned = await denoise(speech48);
    const seconds = (performance.now() - started) / 1000;
    const audioSeconds = speech48.samples.length / 48_000;
    console.info(
      `denoise at 48 kHz: ${audioSeconds.toFixed(1)} s in ${seconds.toFixed(3)} s (${(audioSeconds / seconds).toFixed(0)}× real time)`,
    );
    expect(cleaned.samples.length).toBe(speech48.samples.length);
    expect(meanPower(cleaned.samples)).toBeLessThan(meanPower(speech48.samples));
    expect(audioSeconds / seconds).toBeGreaterThan(10);
  });

  it('gives the same result to calls that run at the same time', async () => {
    // 3 s each: long enough to span several turns of the event loop (one per second of audio).
    const first = { ...noisy, samples: noisy.samples.subarray(0, 48_000) };
    const other = addNoise({ ...clean, samples: clean.samples.subarray(48_000, 96_000) }, 10, 11);
    const alone = [await denoise(first), await denoise(other)];
    const together = await Promise.all([denoise(first), denoise(other), denoise(first)]);
    expect(together[0]?.samples).toEqual(alone[0]?.samples);
    expect(together[1]?.samples).toEqual(alone[1]?.samples);
    expect(together[2]?.samples).toEqual(alone[0]?.samples);
  });

  it('passes empty audio through and refuses stereo', async () => {
    expect(
      (await denoise({ sampleRate: 16_000, channels: 1, samples: new Int16Array(0) })).samples.length,
    ).toBe(0);
    await expect(denoise({ sampleRate: 16_000, channels: 2, samples: new Int16Array(10) })).rejects.toThrow(
      'mono',
    );
  });
});
