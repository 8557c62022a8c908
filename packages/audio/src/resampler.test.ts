import { describe, expect, it } from 'vitest';
import { Resampler } from './resampler';

/** A sine at `hz`, `seconds` long, at `rate`. */
function sine(rate: number, hz: number, seconds: number, amplitude = 10_000): Int16Array {
  const out = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i += 1)
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
  return out;
}

const rms = (s: Int16Array, from = 0, to = s.length) => {
  let sum = 0;
  for (let i = from; i < to; i += 1) sum += (s[i] as number) ** 2;
  return Math.sqrt(sum / Math.max(1, to - from));
};

/** Resamples in uneven chunks, as a socket receives them. */
function resampleInChunks(input: Int16Array, from: number, to: number): Int16Array {
  const resampler = new Resampler(from, to);
  const parts: Int16Array[] = [];
  const sizes = [1, 7, 160, 333, 1024, 4410];
  let at = 0;
  for (let k = 0; at < input.length; k += 1) {
    const size = sizes[k % sizes.length] as number;
    parts.push(resampler.push(input.subarray(at, at + size)));
    at += size;
  }
  parts.push(resampler.flush());
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

describe('Resampler', () => {
  it.each([
    [48_000, 16_000],
    [44_100, 16_000],
    [24_000, 16_000],
    [22_050, 16_000],
    [8_000, 16_000],
    // The engines' speech to a stream's output rate.
    [16_000, 44_100],
    [16_000, 48_000],
    [22_050, 24_000],
    [16_000, 22_050],
    [22_050, 8_000],
  ])('resamples %i Hz to %i Hz in chunks: length, level and frequency kept', (from, to) => {
    const input = sine(from, 440, 1);
    const out = resampleInChunks(input, from, to);
    expect(Math.abs(out.length - to)).toBeLessThanOrEqual(2);
    // The level of a 440 Hz tone is kept (within 2 %), away from the edges.
    const expected = rms(sine(to, 440, 1), 400, to - 400);
    expect(Math.abs(rms(out, 400, to - 400) / expected - 1)).toBeLessThan(0.02);
    // And it is the same tone: the difference to an ideal one (aligned by the resampler's delay) is small.
    let best = Number.POSITIVE_INFINITY;
    for (let lag = -40; lag <= 40; lag += 1) {
      const ideal = sine(to, 440, 1.1);
      let err = 0;
      for (let i = 400; i < to - 400; i += 1)
        err += ((out[i] as number) - (ideal[i + lag + 40] as number)) ** 2;
      best = Math.min(best, Math.sqrt(err / (to - 800)));
    }
    expect(best).toBeLessThan(expected * 0.2);
  });

  it('takes out what is above the new Nyquist frequency (no folding into speech)', () => {
    // 12 kHz at 48 kHz would fold to 4 kHz at 16 kHz without the low-pass.
    const out = resampleInChunks(sine(48_000, 12_000, 0.5), 48_000, 16_000);
    expect(rms(out, 200, out.length - 200)).toBeLessThan(10_000 * Math.SQRT1_2 * 0.01);
  });

  it('passes 16 kHz through untouched', () => {
    const input = sine(16_000, 300, 0.1);
    expect(new Resampler(16_000, 16_000).push(input)).toBe(input);
  });
});
