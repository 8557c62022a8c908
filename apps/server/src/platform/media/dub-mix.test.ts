import { describe, expect, it } from 'vitest';
import {
  buildDubbedTrack,
  DUB_TEMPO_MAX,
  duckEnvelope,
  fitToSlot,
  limitSample,
  resampleFloat,
  trimSilence,
} from './dub-mix';

/** A sine of `seconds` at `frequency`, amplitude `level`, with `padSec` of silence on each side. */
function tone(sampleRate: number, seconds: number, frequency: number, level = 0.5, padSec = 0): Float32Array {
  const pad = Math.round(padSec * sampleRate);
  const n = Math.round(seconds * sampleRate);
  const out = new Float32Array(n + 2 * pad);
  for (let i = 0; i < n; i += 1) out[pad + i] = level * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return out;
}

const rms = (pcm: Float32Array, from: number, to: number) => {
  let sum = 0;
  for (let i = from; i < to; i += 1) sum += (pcm[i] as number) ** 2;
  return Math.sqrt(sum / (to - from));
};

/** The main frequency by counting upward zero crossings. */
function zeroCrossingHz(pcm: Float32Array, sampleRate: number): number {
  let crossings = 0;
  for (let i = 1; i < pcm.length; i += 1)
    if ((pcm[i - 1] as number) < 0 && (pcm[i] as number) >= 0) crossings += 1;
  return crossings / (pcm.length / sampleRate);
}

/** The first sample above `level`. */
const onset = (pcm: Float32Array, level = 0.01) => pcm.findIndex((x) => Math.abs(x) > level);

describe('trimSilence', () => {
  it('trims the padding an engine adds, keeping a 20 ms margin', () => {
    const sr = 24_000;
    const { pcm, leadSec, trailSec } = trimSilence(tone(sr, 1, 200, 0.3, 0.25), sr);
    expect(pcm.length / sr).toBeCloseTo(1.04, 2);
    expect(leadSec).toBeCloseTo(0.23, 2);
    expect(trailSec).toBeCloseTo(0.23, 2);
  });

  it('gives nothing for silence', () => {
    expect(trimSilence(new Float32Array(2400), 24_000).pcm.length).toBe(0);
  });
});

describe('fitToSlot', () => {
  const sr = 24_000;
  // 2 s of "speech" padded with 0.3 s of silence each side, as engines pad.
  const speech = tone(sr, 2, 220, 0.5, 0.3);
  const natural = 2.04; // with the 20 ms margins trimSilence keeps

  it('speeds speech up to fit its slot, keeping its pitch', async () => {
    const fit = await fitToSlot(speech, sr, 1.7);
    expect(fit.tempo).toBeCloseTo(natural / 1.7, 3);
    expect(fit.pcm.length / sr).toBeCloseTo(1.7, 2);
    expect(fit.overflowSec).toBe(0);
    // atempo keeps the pitch: still 220 Hz (a resampling speed-up would make it 264 Hz).
    const body = fit.pcm.subarray(Math.round(0.1 * sr), Math.round(1.5 * sr));
    expect(Math.abs(zeroCrossingHz(body, sr) - 220)).toBeLessThan(5);
  });

  it('stops at the upper bound and reports the overflow', async () => {
    const fit = await fitToSlot(speech, sr, 1);
    expect(fit.tempo).toBe(DUB_TEMPO_MAX);
    expect(fit.naturalSec).toBeCloseTo(natural, 2);
    expect(fit.pcm.length / sr).toBeCloseTo(natural / DUB_TEMPO_MAX, 2);
    expect(fit.overflowSec).toBeCloseTo(natural / DUB_TEMPO_MAX - 1, 2);
  });

  it('leaves shorter speech at its natural pace, or slows it at most to the lower bound with fill', async () => {
    const natural_ = await fitToSlot(speech, sr, 3);
    expect(natural_.tempo).toBe(1);
    expect(natural_.pcm.length / sr).toBeCloseTo(natural, 2);
    const filled = await fitToSlot(speech, sr, 3, { fill: true });
    expect(filled.tempo).toBe(0.9);
    expect(filled.pcm.length / sr).toBeCloseTo(natural / 0.9, 2);
  });

  it('refuses bounds that do not hold natural pace', async () => {
    await expect(fitToSlot(speech, sr, 1, { bounds: { min: 1.1, max: 1.4 } })).rejects.toThrow(RangeError);
  });
});

describe('resampleFloat', () => {
  it('keeps a clip where it starts and how long it lasts', () => {
    const clip = tone(24_000, 0.5, 440, 0.5, 0.1);
    const up = resampleFloat(clip, 24_000, 48_000);
    expect(up.length).toBe(clip.length * 2);
    expect(Math.abs(onset(up) - 2 * onset(clip))).toBeLessThan(0.002 * 48_000);
  });
});

describe('buildDubbedTrack', () => {
  const sr = 48_000;
  const background = tone(sr, 4, 100, 0.5);
  const clip = { startSec: 1.5, pcm: tone(24_000, 0.5, 1000, 0.5), sampleRate: 24_000 };

  it('lasts exactly the duration and places a clip where asked', () => {
    const track = buildDubbedTrack({
      background: null,
      sampleRate: sr,
      durationSec: 3.3,
      clips: [clip],
      mode: 'drop',
    });
    expect(track.length).toBe(Math.round(3.3 * sr));
    expect(Math.abs(onset(track) / sr - 1.5)).toBeLessThan(0.02);
    // drop: nothing but the clip (no source sound at all).
    expect(rms(track, 0, Math.round(1.4 * sr))).toBe(0);
  });

  it('ducks the source 20 dB under a clip, leaves it at full level away from clips', () => {
    // A silent clip: what is left is the background times its gain.
    const silent = { ...clip, pcm: new Float32Array(clip.pcm.length) };
    const track = buildDubbedTrack({
      background,
      sampleRate: sr,
      durationSec: 4,
      clips: [silent],
      mode: 'duck',
    });
    const full = rms(background, 0, sr);
    const under = rms(track, Math.round(1.55 * sr), Math.round(1.95 * sr));
    expect(20 * Math.log10(under / full)).toBeCloseTo(-20, 0);
    expect(rms(track, Math.round(0.2 * sr), Math.round(1.2 * sr)) / full).toBeCloseTo(1, 3);
    expect(rms(track, Math.round(2.4 * sr), Math.round(3.9 * sr)) / full).toBeCloseTo(1, 3);
    // The fall is complete as the clip starts; it began no earlier than the attack before.
    const gain = duckEnvelope(4 * sr, sr, [{ start: 1.5 * sr, end: 2 * sr }]);
    expect(gain[1.5 * sr]).toBeCloseTo(0.1, 3);
    expect(gain[Math.round(1.34 * sr)]).toBe(1);
    expect(gain[Math.round(1.425 * sr)]).toBeGreaterThan(0.1);
    expect(gain[Math.round(1.425 * sr)]).toBeLessThan(1);
    expect(gain[Math.round(2.21 * sr)]).toBe(1);
  });

  it('mixes overlapping clips without clipping', () => {
    const loud = { startSec: 0.5, pcm: tone(sr, 1, 300, 0.8), sampleRate: sr };
    const track = buildDubbedTrack({
      background: tone(sr, 2, 300, 0.8),
      sampleRate: sr,
      durationSec: 2,
      clips: [loud, { ...loud, startSec: 0.6 }],
      mode: 'duck',
      duckDb: 0,
    });
    const peak = track.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    // Sums up to 2.4 come out at most at full scale, never past it (no wrap-around in 16 bits).
    expect(peak).toBeLessThanOrEqual(1);
    expect(peak).toBeGreaterThan(0.95);
    expect(limitSample(0.5)).toBe(0.5);
    expect(limitSample(0.95)).toBeLessThan(0.95);
    expect(limitSample(0.95)).toBeGreaterThan(limitSample(0.93));
    expect(limitSample(-1.2)).toBeGreaterThan(-1);
  });

  it('cuts a clip that runs past the end', () => {
    const track = buildDubbedTrack({
      background: null,
      sampleRate: sr,
      durationSec: 1.7,
      clips: [clip],
      mode: 'duck',
    });
    expect(track.length).toBe(Math.round(1.7 * sr));
    expect(Math.abs(track[track.length - 100] as number)).toBeGreaterThan(0);
  });
});
