import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { yinPitch } from './yin';

/** A harmonic tone (five partials), like a voiced sound, at `level` of full scale. */
function tone(hz: number, sampleRate: number, length: number, level = 0.5): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    let v = 0;
    for (let k = 1; k <= 5; k++) v += Math.sin((2 * Math.PI * hz * k * i) / sampleRate) / k;
    out[i] = (level * v) / 2;
  }
  return out;
}

describe('yinPitch', () => {
  it('finds the fundamental of harmonic tones within 1%', () => {
    for (const [hz, rate] of [
      [80, 16_000],
      [120, 16_000],
      [220, 22_050],
      [300, 3_000],
      [440, 44_100],
    ] as const) {
      const found = yinPitch(tone(hz, rate, Math.round(rate * 0.05)), { sampleRate: rate });
      expect(found, `${hz} Hz at ${rate}`).not.toBeNull();
      expect(Math.abs((found ?? 0) / hz - 1)).toBeLessThan(0.01);
    }
  });

  it('does not depend on the level (quiet frames too)', () => {
    for (const level of [1e-4, 1e-2, 0.9]) {
      const found = yinPitch(tone(120, 16_000, 800, level), { sampleRate: 16_000 });
      expect(Math.abs((found ?? 0) / 120 - 1)).toBeLessThan(0.01);
    }
  });

  it('finds no pitch in silence or white noise', () => {
    expect(yinPitch(new Float32Array(800), { sampleRate: 16_000 })).toBeNull();
    let seed = 7;
    const noise = Float32Array.from({ length: 800 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 30 - 1;
    });
    expect(yinPitch(noise, { sampleRate: 16_000 })).toBeNull();
  });

  it('answers null or a pitch in the range the frame can hold, for any input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 0, maxLength: 300 }),
        (xs) => {
          const found = yinPitch(xs, { sampleRate: 8000 });
          if (found !== null) {
            expect(found).toBeGreaterThan(0);
            expect(found).toBeLessThanOrEqual(8000);
          }
        },
      ),
    );
  });
});
