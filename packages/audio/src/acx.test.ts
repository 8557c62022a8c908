import { describe, expect, it } from 'vitest';
import {
  ACX_LIMITS,
  AcxMeter,
  acxReport,
  chapterPadding,
  fillDigitalSilence,
  measureAcx,
  normalizeForAcx,
  PeakLimiter,
  RoomTone,
  SILENCE_DB,
} from './acx';
import { seededRandom } from './seeded-random';

const RATE = 16_000;

/** A sine of amplitude `amp` (linear, 1 = full scale) lasting `sec`. */
function sine(amp: number, sec: number, hz = 440, rate = RATE): Int16Array {
  const out = new Int16Array(Math.round(sec * rate));
  for (let i = 0; i < out.length; i += 1)
    out[i] = Math.round(amp * 32768 * Math.sin((2 * Math.PI * hz * i) / rate));
  return out;
}

const join = (...parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * Speech-like: a voiced buzz (a 120 Hz fundamental and its harmonics) whose loudness rises and falls
 * with 4 Hz syllables, in 1.2 s phrases between 0.8 s pauses of digital silence, with a short click
 * (a plosive) on each phrase's first syllable: a crest factor like read speech's (~18 dB), not a sine's.
 */
function speechLike(rmsScale: number, sec: number, rate = RATE): Int16Array {
  const out = new Int16Array(Math.round(sec * rate));
  const random = seededRandom(7);
  for (let i = 0; i < out.length; i += 1) {
    const t = i / rate;
    const inPhrase = t % 2 < 1.2;
    if (!inPhrase) continue;
    const syllable = Math.max(0, Math.sin(Math.PI * 4 * (t % 2))) ** 2;
    let buzz = 0;
    for (let h = 1; h <= 8; h += 1) buzz += Math.sin(2 * Math.PI * 120 * h * t) / h;
    const click = t % 2 < 0.004 ? (random() - 0.5) * 6 : 0;
    out[i] = Math.max(-32768, Math.min(32767, Math.round((buzz * syllable + click) * rmsScale * 32768)));
  }
  return out;
}

describe('AcxMeter', () => {
  it('measures a sine: peak = 20·log10(a), RMS 3.01 dB under it', () => {
    const m = measureAcx(sine(0.5, 2), RATE);
    expect(m.peak_db).toBeCloseTo(-6.02, 1);
    expect(m.rms_db).toBeCloseTo(-9.03, 1);
  });

  it('takes the quietest whole half second as the noise floor', () => {
    // 1 s of a loud tone, then 1 s of a steady 32-LSB level (exactly −60.21 dBFS RMS); 34 is −59.68.
    const quiet = new Int16Array(RATE).fill(32);
    const m = measureAcx(join(sine(0.3, 1), quiet), RATE);
    expect(m.noise_floor_db).toBeCloseTo(20 * Math.log10(32 / 32768), 2);
    expect(m.passes.noise_floor).toBe(true);
    const louder = measureAcx(join(sine(0.3, 1), new Int16Array(RATE).fill(34)), RATE);
    expect(louder.noise_floor_db).toBeGreaterThan(ACX_LIMITS.noiseFloorMaxDb);
    expect(louder.passes.noise_floor).toBe(false);
  });

  it('gives the same figures in chunks of any size as whole', () => {
    const samples = speechLike(0.05, 3);
    const whole = measureAcx(samples, RATE);
    const meter = new AcxMeter(RATE);
    for (let at = 0; at < samples.length; at += 777) meter.push(samples.subarray(at, at + 777));
    expect(acxReport(meter.result())).toEqual(whole);
    expect(meter.samples).toBe(samples.length);
  });

  it('reports digital silence and no audio at the floor value, finite', () => {
    expect(measureAcx(new Int16Array(RATE), RATE)).toMatchObject({
      rms_db: SILENCE_DB,
      peak_db: SILENCE_DB,
      noise_floor_db: SILENCE_DB,
    });
    expect(new AcxMeter(RATE).result().rms_db).toBe(SILENCE_DB);
    expect(() => new AcxMeter(0)).toThrow(RangeError);
  });

  it('applies each ACX rule at its edges', () => {
    const at = (rms: number, peak: number, floor: number) =>
      acxReport({ rms_db: rms, peak_db: peak, noise_floor_db: floor });
    expect(at(-23, -3, -60).pass).toBe(true);
    expect(at(-18, -3, -60).pass).toBe(true);
    expect(at(-23.01, -3, -60).passes).toEqual({ rms: false, peak: true, noise_floor: true });
    expect(at(-17.99, -3, -60).passes.rms).toBe(false);
    expect(at(-20, -2.99, -60).passes).toEqual({ rms: true, peak: false, noise_floor: true });
    expect(at(-20, -6, -59.9).passes).toEqual({ rms: true, peak: true, noise_floor: false });
    expect(at(-20, -6, -59.9).pass).toBe(false);
  });
});

describe('PeakLimiter', () => {
  it('keeps every sample under the ceiling and the output as long as the input', () => {
    const loud = speechLike(0.4, 2);
    const limiter = new PeakLimiter(RATE, { ceilingDb: -3.5 });
    const parts: Int16Array[] = [];
    for (let at = 0; at < loud.length; at += 1000) parts.push(limiter.push(loud.subarray(at, at + 1000)));
    parts.push(limiter.flush());
    const out = join(...parts);
    expect(out.length).toBe(loud.length);
    expect(measureAcx(loud, RATE).peak_db).toBeGreaterThan(-1);
    expect(measureAcx(out, RATE).peak_db).toBeLessThanOrEqual(-3.5 + 0.01);
    expect(limiter.maxGainReductionDb).toBeLessThan(-2);
  });

  it('passes audio under the ceiling unchanged, in time (the look-ahead is compensated)', () => {
    const quiet = sine(0.2, 0.5);
    const limiter = new PeakLimiter(RATE);
    const out = join(
      limiter.push(quiet.subarray(0, 101)),
      limiter.push(quiet.subarray(101)),
      limiter.flush(),
    );
    expect(out).toEqual(quiet);
    expect(limiter.maxGainReductionDb).toBe(0);
  });

  it('returns every sample of an input shorter than its look-ahead', () => {
    const limiter = new PeakLimiter(RATE);
    const few = Int16Array.of(100, -200, 300);
    expect(join(limiter.push(few), limiter.flush())).toEqual(few);
  });

  it('ramps the gain down before a peak and back up after it: not a hard clip', () => {
    // A steady tone at −12 dBFS with a 10 ms burst at −1 dBFS in the middle.
    const tone = sine(0.25, 1.5, 200);
    const burstAt = RATE / 2;
    for (let i = burstAt; i < burstAt + RATE / 100; i += 1)
      tone[i] = Math.round(0.89 * 32768 * Math.sin((2 * Math.PI * 200 * i) / RATE));
    const limiter = new PeakLimiter(RATE, { ceilingDb: -3.5 });
    const out = join(limiter.push(tone), limiter.flush());
    const gainNear = (i: number) => {
      // The gain at a peak of the tone near sample i (the ratio of output to input at the largest input).
      let best = i;
      for (let j = i - 40; j < i + 40; j += 1)
        if (Math.abs(tone[j] as number) > Math.abs(tone[best] as number)) best = j;
      return (out[best] as number) / (tone[best] as number);
    };
    expect(gainNear(burstAt - RATE / 10)).toBeCloseTo(1, 2); // well before: untouched
    const during = gainNear(burstAt + RATE / 200);
    expect(during).toBeLessThan(0.76); // −3.5 dB over −1 dB: at most 0.75
    const attack = gainNear(burstAt - 40); // 2.5 ms before: on its way down, neither untouched nor all the way
    expect(attack).toBeLessThan(0.99);
    expect(attack).toBeGreaterThan(during);
    const release = gainNear(burstAt + RATE / 100 + RATE / 50); // 20 ms after: recovering
    expect(release).toBeGreaterThan(during);
    expect(release).toBeLessThan(0.99);
    expect(gainNear(burstAt + RATE / 100 + RATE / 2 - 50)).toBeCloseTo(1, 2); // 0.5 s after: back
  });
});

describe('normalizeForAcx', () => {
  it('brings quiet speech-like audio into the ACX window', () => {
    const quiet = speechLike(0.02, 6);
    const { before, after, gainDb, samples } = normalizeForAcx(quiet, RATE);
    expect(before.passes.rms).toBe(false);
    expect(before.rms_db).toBeLessThan(-30);
    expect(gainDb).toBeGreaterThan(10);
    expect(samples.length).toBe(quiet.length);
    expect(after.pass).toBe(true);
    expect(after.rms_db).toBeGreaterThan(-21);
    expect(after.peak_db).toBeLessThanOrEqual(-3.5 + 0.01);
  });

  it('brings loud audio down and keeps a room-tone floor under −60 dB', () => {
    const loud = speechLike(0.3, 6);
    fillDigitalSilence(loud, RATE, new RoomTone(1));
    const { before, after, gainDb } = normalizeForAcx(loud, RATE);
    expect(before.passes.peak).toBe(false);
    expect(gainDb).toBeLessThan(0);
    expect(after).toMatchObject({ pass: true, passes: { rms: true, peak: true, noise_floor: true } });
  });

  it('leaves digital silence alone (no gain to find)', () => {
    const { gainDb, after } = normalizeForAcx(new Int16Array(RATE), RATE);
    expect(gainDb).toBe(0);
    expect(after.rms_db).toBe(SILENCE_DB);
  });
});

describe('room tone', () => {
  it('is a −75 dB noise bed, the same for the same seed, seamless across calls', () => {
    const tone = new RoomTone(42).samples(RATE * 2);
    const m = measureAcx(tone, RATE);
    expect(m.rms_db).toBeGreaterThan(-75.5);
    expect(m.rms_db).toBeLessThan(-74.5);
    expect(m.noise_floor_db).toBeLessThan(-74);
    expect(tone.some((x) => x !== 0)).toBe(true);
    const again = new RoomTone(42);
    expect(join(again.samples(1234), again.samples(RATE * 2 - 1234))).toEqual(tone);
    expect(new RoomTone(43).samples(100)).not.toEqual(tone.subarray(0, 100));
    expect(() => new RoomTone(1, -20)).toThrow(RangeError);
  });

  it('fills runs of digital silence, not single zero crossings', () => {
    const samples = join(sine(0.1, 0.1), new Int16Array(RATE / 2), sine(0.1, 0.1));
    const zerosInTone = sine(0.1, 0.1).filter((x) => x === 0).length;
    const filled = fillDigitalSilence(samples, RATE, new RoomTone(3));
    // The silence, and the second tone's first sample (sin 0) that touches it.
    expect(filled).toBeGreaterThanOrEqual(RATE / 2);
    expect(filled).toBeLessThanOrEqual(RATE / 2 + 1);
    expect(samples.filter((x) => x === 0).length).toBeLessThan(2 * zerosInTone + RATE / 2 / 10);
    expect(measureAcx(samples, RATE).noise_floor_db).toBeGreaterThan(-80);
  });

  it('keeps a chapter’s head and tail within ACX’s ranges', () => {
    expect(chapterPadding()).toEqual({ leadSec: 0.75, tailSec: 2 });
    expect(chapterPadding(0.5, 5)).toEqual({ leadSec: 0.5, tailSec: 5 });
    expect(() => chapterPadding(0.2, 2)).toThrow(/head/);
    expect(() => chapterPadding(1, 6)).toThrow(/tail/);
  });
});
