import { describe, expect, it } from 'vitest';
import { crossesLowCredits, LOW_CREDITS_SHARE } from './credits.service';

describe('the low-credits mark', () => {
  it('is passed by the one spend that reaches 90% of the limit', () => {
    expect(LOW_CREDITS_SHARE).toBe(0.9);
    expect(crossesLowCredits(10_000, 8_999, 9_000)).toBe(true);
    expect(crossesLowCredits(10_000, 0, 10_000)).toBe(true);
    expect(crossesLowCredits(10_000, 8_000, 8_999)).toBe(false);
    expect(crossesLowCredits(10_000, 9_000, 9_500)).toBe(false);
  });

  it('never for an unlimited plan or no credits at all', () => {
    expect(crossesLowCredits(-1, 0, 1_000_000)).toBe(false);
    expect(crossesLowCredits(0, 0, 10)).toBe(false);
  });
});
