import { encodeWav } from '@parla/audio';
import { describe, expect, it } from 'vitest';
import { correlation, decibels, flacClaiming, makeMediaFile, meanPower } from '../../test/test-signals';
import { decodeToPcm } from './decode-audio';
import { UploadRejectedError } from './probe-upload';

/** A 440 Hz sine of `amplitude` at `sampleRate`, `seconds` long. */
const sine = (sampleRate: number, seconds: number, amplitude: number) =>
  new Int16Array(Math.round(sampleRate * seconds)).map((_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / sampleRate)),
  );

/** Two identical channels, interleaved. */
const stereo = (mono: Int16Array) => {
  const out = new Int16Array(mono.length * 2);
  mono.forEach((v, i) => {
    out[2 * i] = v;
    out[2 * i + 1] = v;
  });
  return out;
};

const options = { sampleRate: 24_000, maxSeconds: 60 };

describe('decodeToPcm', () => {
  it('resamples to the rate asked, mixes to mono and leaves the level as it is', async () => {
    const wav = encodeWav({ sampleRate: 16_000, channels: 2, samples: stereo(sine(16_000, 2, 10_000)) });
    const audio = await decodeToPcm(wav, options);
    expect(audio.sampleRate).toBe(24_000);
    expect(audio.channels).toBe(1);
    expect(Math.abs(audio.samples.length - 48_000)).toBeLessThanOrEqual(2);
    // The same sine at the new rate, at the same level.
    const expected = sine(24_000, 2, 10_000);
    const middle = (s: Int16Array) => s.subarray(2400, 45_600);
    expect(correlation(middle(audio.samples), middle(expected))).toBeGreaterThan(0.999);
    expect(Math.abs(decibels(meanPower(middle(audio.samples)) / meanPower(middle(expected))))).toBeLessThan(
      0.1,
    );
  });

  it('decodes the audio of a video', async () => {
    const mp4 = await makeMediaFile('clip.mp4', [
      ...['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=3'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=3', '-shortest'],
      ...['-c:v', 'libx264', '-c:a', 'aac', '-b:a', '128k'],
    ]);
    const audio = await decodeToPcm(mp4, { sampleRate: 16_000, maxSeconds: 60 });
    expect(audio.samples.length / 16_000).toBeGreaterThan(2.9);
    expect(audio.samples.length / 16_000).toBeLessThan(3.1);
    // lavfi's sine is at 1/8 of full scale: AAC keeps its level within a fraction of a dB.
    const level = decibels(meanPower(audio.samples.subarray(8000, 40_000)) / (32768 / 8) ** 2 / 0.5);
    expect(Math.abs(level)).toBeLessThan(0.5);
  });

  it('stops at maxSeconds', async () => {
    const wav = encodeWav({ sampleRate: 16_000, channels: 1, samples: sine(16_000, 5, 8000) });
    const audio = await decodeToPcm(wav, { sampleRate: 16_000, maxSeconds: 1.5 });
    expect(audio.samples.length).toBe(24_000);
  });

  it('with refuseLonger, refuses a file holding more than maxSeconds whatever its header says, and decodes no further', async () => {
    // Ten seconds of tone whose header says one second.
    const flac = await makeMediaFile('tone.flac', [
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000:duration=10', '-c:a', 'flac'],
    ]);
    const lying = flacClaiming(flac, 1);
    const cut = await decodeToPcm(lying, { sampleRate: 8000, maxSeconds: 4 });
    expect(cut.samples.length).toBe(32_000);
    const refused = await decodeToPcm(lying, { sampleRate: 8000, maxSeconds: 4, refuseLonger: true }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(UploadRejectedError);
    expect(refused).toMatchObject({
      reason: 'too_long',
      message: 'The recording is longer than 4 s; at most 4 s is accepted.',
    });
    // A file of exactly the limit passes.
    const exact = await decodeToPcm(flac, { sampleRate: 8000, maxSeconds: 10, refuseLonger: true });
    expect(exact.samples.length).toBe(80_000);
  });

  it('refuses a video without audio', async () => {
    const silent = await makeMediaFile('silent.mp4', [
      ...['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=1', '-c:v', 'libx264'],
    ]);
    const error = await decodeToPcm(silent, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadRejectedError);
    expect(error).toMatchObject({ reason: 'no_audio', message: 'The file has no audio track.', status: 415 });
  });

  it('refuses bytes that are not audio, and an empty file', async () => {
    const text = await decodeToPcm(Buffer.from('not audio at all '.repeat(100)), options).catch(
      (e: unknown) => e,
    );
    expect(text).toMatchObject({ reason: 'not_media' });
    const wav = encodeWav({ sampleRate: 16_000, channels: 1, samples: sine(16_000, 1, 8000) });
    const headerOnly = await decodeToPcm(wav.subarray(0, 30), options).catch((e: unknown) => e);
    expect(headerOnly).toBeInstanceOf(UploadRejectedError);
    expect(await decodeToPcm(new Uint8Array(0), options).catch((e: unknown) => e)).toMatchObject({
      reason: 'empty',
    });
  });

  it('kills ffmpeg past its time bound', async () => {
    const wav = encodeWav({ sampleRate: 16_000, channels: 1, samples: sine(16_000, 1, 8000) });
    const error = await decodeToPcm(wav, { ...options, timeoutMs: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'timed_out' });
  });
});
