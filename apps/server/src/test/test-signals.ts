/*
 * Signals and measurements for the voice-audio tests (not used by the server): test tones, engine
 * speech, noise, and what the tests measure on them (pitch by YIN, spectral centroid, formant warp).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type PcmAudio, seededRandom } from '@parla/audio';
import { YIN } from 'pitchfinder';
import { runMediaTool } from '../platform/media/run-media-tool';
import { synthesizeWithFlite } from '../providers/tts/engines/flite-engine';

/**
 * Runs ffmpeg into a file of that name (MP4 needs a seekable output) and returns its bytes; `input` is
 * its stdin (`-i pipe:0`).
 */
export async function makeMediaFile(
  name: string,
  args: readonly string[],
  input?: Uint8Array,
): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-media-test-'));
  try {
    const file = path.join(dir, name);
    const { exit } = await runMediaTool('ffmpeg', ['-v', 'error', ...args, '-y', file], {
      timeoutMs: 30_000,
      ...(input ? { input } : {}),
    });
    if (exit.code !== 0) throw new Error(`ffmpeg could not make ${name}: ${exit.stderr}`);
    return await fs.readFile(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * A copy of a FLAC file whose header (STREAMINFO's total sample count) says it lasts `seconds`, whatever
 * it holds: what ffprobe reports as its duration, true or not.
 */
export function flacClaiming(flac: Buffer, seconds: number): Buffer {
  if (flac.toString('latin1', 0, 4) !== 'fLaC') throw new Error('not a FLAC file');
  const out = Buffer.from(flac);
  // STREAMINFO follows the 4-byte block header: 20 bits of rate, 3 + 5 bits, then 36 bits of samples.
  const packed = out.readBigUInt64BE(18);
  const rate = packed >> 44n;
  const total = BigInt(Math.round(seconds)) * rate;
  out.writeBigUInt64BE((packed & ~((1n << 36n) - 1n)) | total, 18);
  return out;
}

/** Speech from flite (16 kHz): `slt` is a woman's voice (median F0 ~164 Hz), `awb` a man's (~126 Hz). */
export async function fliteSpeech(voice: 'slt' | 'awb', text: string): Promise<PcmAudio> {
  const result = await synthesizeWithFlite({ engine: 'flite', voice, text });
  return { sampleRate: result.sampleRate, channels: 1, samples: result.samples };
}

/** About 10 s of speech when flite reads it. */
export const TEN_SECONDS_OF_TEXT =
  'Speech to speech keeps the timing and the intonation of the input, and moves its timbre towards the ' +
  'target voice. This sentence is here to make the sample a little longer, about ten seconds in all.';

/**
 * A voiced, vowel-like tone: harmonics of `f0` shaped by three resonances (an "ah" at 700, 1220 and
 * 2600 Hz), with a slow 3 % vibrato so it is not perfectly stationary.
 */
export function harmonicTone(sampleRate: number, seconds: number, f0: number): PcmAudio {
  const samples = new Int16Array(Math.round(sampleRate * seconds));
  const formants = [
    [700, 130],
    [1220, 70],
    [2600, 160],
  ] as const;
  const gain = (hz: number) =>
    formants.reduce((sum, [centre, width]) => sum + 1 / (1 + ((hz - centre) / width) ** 2), 0.02);
  let phase = 0;
  const harmonics = Math.floor(sampleRate / 2 / (f0 * 1.05)) - 1;
  const amplitudes = Array.from({ length: harmonics }, (_, k) => gain((k + 1) * f0));
  const scale = 9000 / amplitudes.reduce((a, b) => a + b, 0);
  for (let i = 0; i < samples.length; i++) {
    const hz = f0 * (1 + 0.03 * Math.sin((2 * Math.PI * 5 * i) / sampleRate));
    phase += (2 * Math.PI * hz) / sampleRate;
    let value = 0;
    for (let k = 0; k < harmonics; k++) value += (amplitudes[k] as number) * Math.sin((k + 1) * phase);
    samples[i] = Math.round(value * scale);
  }
  return { sampleRate, channels: 1, samples };
}

/** Seeded Gaussian white noise (mulberry32 and Box–Muller), unit variance. */
export function whiteNoise(length: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  // Never 0 (the logarithm below): half a step up.
  const uniform = () => random() + 0.5 / 4294967296;
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    out[i] = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  }
  return out;
}

/** Mean power of samples[from, to). */
export function meanPower(samples: ArrayLike<number>, from = 0, to = samples.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (samples[i] as number) ** 2;
  return sum / Math.max(1, to - from);
}

export const decibels = (ratio: number) => 10 * Math.log10(ratio);

/** Pearson correlation of two equally long signals. */
export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i] as number;
    mb += b[i] as number;
  }
  ma /= n;
  mb /= n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const x = (a[i] as number) - ma;
    const y = (b[i] as number) - mb;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return ab / Math.sqrt(aa * bb);
}

/** Frames of `size` every `hop` whose RMS is at least 1 % of full scale (the rest is silence). */
function* loudFrames(audio: PcmAudio, size: number, hop: number): Generator<Float64Array> {
  const { samples } = audio;
  for (let at = 0; at + size <= samples.length; at += hop) {
    const frame = new Float64Array(size);
    for (let i = 0; i < size; i++) frame[i] = (samples[at + i] as number) / 32768;
    if (Math.sqrt(meanPower(frame)) >= 0.01) yield frame;
  }
}

/** Median fundamental frequency over the voiced frames (pitchfinder's YIN, 64 ms frames, 50–600 Hz). */
export function medianPitch(audio: PcmAudio): number {
  const size = 2 ** Math.ceil(Math.log2(0.064 * audio.sampleRate));
  const yin = YIN({ sampleRate: audio.sampleRate, threshold: 0.1 });
  const found: number[] = [];
  for (const frame of loudFrames(audio, size, size / 2)) {
    const hz = yin(Float32Array.from(frame));
    if (hz !== null && hz > 50 && hz < 600) found.push(hz);
  }
  found.sort((a, b) => a - b);
  if (found.length < 5) throw new Error(`Only ${found.length} voiced frames: no pitch to measure.`);
  return found[Math.floor(found.length / 2)] as number;
}

/** In-place radix-2 FFT. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j] as number, re[i] as number];
      [im[i], im[j]] = [im[j] as number, im[i] as number];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const step = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(step * k);
        const wi = Math.sin(step * k);
        const a = i + k;
        const b = a + len / 2;
        const xr = (re[b] as number) * wr - (im[b] as number) * wi;
        const xi = (re[b] as number) * wi + (im[b] as number) * wr;
        re[b] = (re[a] as number) - xr;
        im[b] = (im[a] as number) - xi;
        re[a] = (re[a] as number) + xr;
        im[a] = (im[a] as number) + xi;
      }
    }
  }
}

/** Long-term average power spectrum of the loud frames: 1024-point Hann frames every 256 samples. */
function averageSpectrum(audio: PcmAudio): Float64Array {
  const size = 1024;
  const sum = new Float64Array(size / 2);
  let frames = 0;
  for (const frame of loudFrames(audio, size, 256)) {
    const re = frame.map((v, i) => v * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size)));
    const im = new Float64Array(size);
    fft(re, im);
    for (let k = 0; k < size / 2; k++)
      sum[k] = (sum[k] as number) + (re[k] as number) ** 2 + (im[k] as number) ** 2;
    frames++;
  }
  return sum.map((v) => v / Math.max(1, frames));
}

/**
 * Power-weighted mean frequency of the long-term spectrum over 60 Hz – 3.8 kHz, in Hz: the definition
 * voice-profile.ts uses for a profile's centroid. (Magnitude-weighted or over the whole band it misled:
 * raising the formants at a fixed rate pushes the top of the band past Nyquist, and flite's slt voice has
 * more energy at 4–8 kHz than at 2–4 kHz, so such a centroid fell for slt while its formants rose.)
 */
export function spectralCentroid(audio: PcmAudio): number {
  const spectrum = averageSpectrum(audio);
  let weighted = 0;
  let total = 0;
  spectrum.forEach((power, k) => {
    const hz = (k * audio.sampleRate) / 1024;
    if (hz < 60 || hz > 3800) return;
    weighted += power * hz;
    total += power;
  });
  return weighted / total;
}

/**
 * The factor a by which `after`'s spectral envelope is `before`'s stretched in frequency
 * (after(f) ≈ before(f / a)), over 400–3800 Hz: the long-term spectra smoothed over 300 Hz (wider than
 * the harmonics' spacing, so pitch hardly counts) compared in dB, their mean difference set aside.
 */
export function formantWarp(before: PcmAudio, after: PcmAudio): number {
  const a = averageSpectrum(before);
  const b = averageSpectrum(after);
  const level = (spectrum: Float64Array, sampleRate: number, hz: number, width: number) => {
    let sum = 0;
    let count = 0;
    for (let k = 0; k < spectrum.length; k++) {
      if (Math.abs((k * sampleRate) / 1024 - hz) <= width / 2) {
        sum += spectrum[k] as number;
        count++;
      }
    }
    return 10 * Math.log10(sum / Math.max(1, count) + 1e-20);
  };
  let best = Number.POSITIVE_INFINITY;
  let bestWarp = 1;
  for (let warp = 0.7; warp <= 1.4; warp += 0.005) {
    const diffs: number[] = [];
    for (let hz = 400; hz <= 3800; hz += 25) {
      diffs.push(level(b, after.sampleRate, hz, 300 * warp) - level(a, before.sampleRate, hz / warp, 300));
    }
    const mean = diffs.reduce((x, y) => x + y, 0) / diffs.length;
    const error = diffs.reduce((x, y) => x + (y - mean) ** 2, 0);
    if (error < best) {
      best = error;
      bestWarp = warp;
    }
  }
  return bestWarp;
}

/** Mono recordings of one rate joined with half a second of silence after each (a conversation). */
export function joinWithPauses(...parts: PcmAudio[]): PcmAudio {
  const sampleRate = parts[0]?.sampleRate ?? 16_000;
  const gap = Math.round(sampleRate / 2);
  const samples = new Int16Array(parts.reduce((n, p) => n + p.samples.length + gap, 0));
  let at = 0;
  for (const part of parts) {
    samples.set(part.samples, at);
    at += part.samples.length + gap;
  }
  return { sampleRate, channels: 1, samples };
}
