import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AudioFingerprint,
  compareFingerprints,
  concatFingerprints,
  FINGERPRINT_MIN_ALIGNED,
  fingerprintAudio,
  fingerprintPieces,
  searchFingerprints,
} from './fingerprint';
import { Resampler } from './resampler';
import { type SpokenAudio, useESpeakSpeech } from './test/espeak-speech';

/*
 * Fingerprints of real speech (eSpeak-NG, in-process): a recording of the fingerprinted audio is
 * recognised after resampling, gain, noise and cutting; other speech is not. Re-encoding (MP3, Opus) is
 * covered where ffmpeg is: apps/server/src/modules/provenance/fingerprint-codecs.test.ts.
 */

type Audio = SpokenAudio;

const STATION =
  'The train to the city leaves every twenty minutes from the main station, and the last one goes a little after midnight. ' +
  'Our neighbours painted their front door a bright shade of yellow last weekend, and the whole street has talked about it since.';
const GARDEN =
  'The museum is closed on Mondays, but the garden stays open until sunset. Remember to water the plants on the balcony while we are away.';

const speak = useESpeakSpeech();

function resample(audio: Audio, rate: number): Audio {
  const resampler = new Resampler(audio.sampleRate, rate);
  const head = resampler.push(audio.samples);
  const tail = resampler.flush();
  const samples = new Int16Array(head.length + tail.length);
  samples.set(head);
  samples.set(tail, head.length);
  return { sampleRate: rate, samples };
}

const clip = (value: number) => Math.max(-32768, Math.min(32767, Math.round(value)));
const gain = (audio: Audio, factor: number): Audio => ({
  ...audio,
  samples: Int16Array.from(audio.samples, (s) => clip(s * factor)),
});

/** White Gaussian noise this many dB under the speech's level (its samples above −40 dBFS), seeded. */
function withNoise(audio: Audio, snrDb: number): Audio {
  let power = 0;
  let count = 0;
  for (const s of audio.samples) {
    if (Math.abs(s) < 328) continue;
    power += s * s;
    count++;
  }
  const sigma = Math.sqrt(power / Math.max(1, count)) / 10 ** (snrDb / 20);
  let seed = 12345;
  const uniform = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed + 1) / 2147483649;
  };
  return {
    ...audio,
    samples: Int16Array.from(
      audio.samples,
      (s) => s + clip(sigma * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())),
    ).map(clip),
  };
}

const part = (audio: Audio, fromSeconds: number, seconds: number): Audio => ({
  ...audio,
  samples: audio.samples.slice(
    Math.round(fromSeconds * audio.sampleRate),
    Math.round((fromSeconds + seconds) * audio.sampleRate),
  ),
});

describe('audio fingerprints of eSpeak-NG speech', () => {
  let station: Audio;
  let reference: AudioFingerprint;
  beforeAll(() => {
    station = speak('en-us', STATION);
    reference = fingerprintAudio(station);
  });
  const found = (recording: Audio) => compareFingerprints(searchFingerprints(recording), reference);

  it('is about a hundred landmarks a second of speech, and finds the audio itself whole', () => {
    const seconds = station.samples.length / station.sampleRate;
    expect(seconds).toBeGreaterThan(10);
    expect(reference.hashes.length / seconds).toBeGreaterThan(50);
    expect(reference.hashes.length / seconds).toBeLessThan(200);
    const itself = found(station);
    expect(itself.alignedHashes).toBe(reference.hashes.length);
    expect(itself.offsetSeconds).toBe(0);
  });

  it.each([44_100, 24_000, 16_000, 8000])('finds it resampled to %i Hz', (rate) => {
    const match = found(resample(station, rate));
    expect(match.alignedHashes).toBeGreaterThan(0.5 * reference.hashes.length);
    expect(Math.abs(match.offsetSeconds)).toBeLessThanOrEqual(0.016);
  });

  it('finds it 26 dB quieter and 12 dB louder (clipped)', () => {
    expect(found(gain(station, 0.05)).alignedHashes).toBeGreaterThan(0.5 * reference.hashes.length);
    expect(found(gain(station, 4)).alignedHashes).toBeGreaterThan(4 * FINGERPRINT_MIN_ALIGNED);
  });

  it('finds it under white noise 20 dB below the speech', () => {
    expect(found(withNoise(station, 20)).alignedHashes).toBeGreaterThan(4 * FINGERPRINT_MIN_ALIGNED);
  });

  it('finds a 3 s part of it, at its place, resampled to 8 kHz with noise', () => {
    for (const from of [1.003, 4.517, 7.26]) {
      const cut = part(station, from, 3);
      const plain = found(cut);
      expect(plain.alignedHashes).toBeGreaterThanOrEqual(2 * FINGERPRINT_MIN_ALIGNED);
      expect(Math.abs(plain.offsetSeconds - from)).toBeLessThanOrEqual(0.02);
      const rough = found(withNoise(resample(cut, 8000), 20));
      expect(rough.alignedHashes).toBeGreaterThanOrEqual(FINGERPRINT_MIN_ALIGNED);
    }
  });

  // (The same eSpeak voice in another accent or its Klatt synthesis, reading the same text, shares
  // 15–25 landmarks with it: the same engine's timing and formant targets. That is the installation's
  // own speech all the same; a human reading shares none of it, bench/pvc-verification.bench.ts.)
  it('does not find it in other speech: another text, another voice, noise, silence', () => {
    const others = [
      speak('en-us', GARDEN),
      speak('en-us+f3', STATION),
      speak('en-us+m3', STATION),
      withNoise({ sampleRate: 16_000, samples: new Int16Array(16_000 * 5).fill(1000) }, 0),
      { sampleRate: 16_000, samples: new Int16Array(16_000 * 5) },
    ];
    for (const other of others) expect(found(other).alignedHashes).toBeLessThan(FINGERPRINT_MIN_ALIGNED);
  });

  it('gives nearly the same landmarks in pieces as whole, and places parts by their start', () => {
    const long = speak('en-us', `${STATION} ${GARDEN}`);
    const whole = fingerprintAudio(long);
    const pieces = concatFingerprints([...fingerprintPieces(long)]);
    const keys = new Set(Array.from(whole.hashes, (hash, i) => `${hash}@${whole.frames[i]}`));
    const shared = Array.from(pieces.hashes, (hash, i) => `${hash}@${pieces.frames[i]}`).filter((k) =>
      keys.has(k),
    ).length;
    expect(shared).toBeGreaterThan(0.95 * whole.hashes.length);
    expect(pieces.hashes.length).toBeLessThan(1.05 * whole.hashes.length);

    // Two sentences fingerprinted apart, the second placed after the first: a part of it is found there.
    const first = speak('en-us', GARDEN);
    const firstSeconds = first.samples.length / first.sampleRate;
    const joined = concatFingerprints([fingerprintAudio(first), fingerprintAudio(station, firstSeconds)]);
    const match = compareFingerprints(searchFingerprints(part(station, 2, 3)), joined);
    expect(match.alignedHashes).toBeGreaterThanOrEqual(2 * FINGERPRINT_MIN_ALIGNED);
    expect(Math.abs(match.offsetSeconds - (firstSeconds + 2))).toBeLessThanOrEqual(0.02);
  });

  it('refuses audio below 8 kHz', () => {
    expect(() => fingerprintAudio({ sampleRate: 4000, samples: new Int16Array(4000) })).toThrow(RangeError);
  });
});
