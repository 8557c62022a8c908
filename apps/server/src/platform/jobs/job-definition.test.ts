import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './job-definition';

describe('retryDelayMs', () => {
  it('doubles from the base delay', () => {
    expect([1, 2, 3, 4].map((a) => retryDelayMs(1000, a))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never decreases with attempts and never exceeds one hour', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600_000 }), fc.integer({ min: 1, max: 100 }), (base, attempt) => {
        const delay = retryDelayMs(base, attempt);
        expect(delay).toBeLessThanOrEqual(3_600_000);
        expect(retryDelayMs(base, attempt + 1)).toBeGreaterThanOrEqual(delay);
      }),
    );
  });
});
