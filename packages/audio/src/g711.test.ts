import { describe, expect, it } from 'vitest';
import { alawToPcm, pcmToAlaw, pcmToUlaw, ulawToPcm } from './g711';

const everyByte = Uint8Array.from({ length: 256 }, (_, i) => i);
const everySample = Int16Array.from({ length: 65_536 }, (_, i) => i - 32_768);

describe('G.711', () => {
  it('decodes μ-law: silence, both signs, full scale', () => {
    const out = ulawToPcm(Uint8Array.from([0xff, 0x7f, 0x80, 0x00, 0xef, 0x6f]));
    expect(out[0]).toBe(0);
    expect(out[1]).toBe(0);
    expect(out[2]).toBe(32124);
    expect(out[3]).toBe(-32124);
    expect(out[4]).toBe(-(out[5] as number));
  });

  it('decodes A-law: the smallest levels, both signs, full scale', () => {
    const out = alawToPcm(Uint8Array.from([0xd5, 0x55, 0xaa, 0x2a]));
    expect(out[0]).toBe(8);
    expect(out[1]).toBe(-8);
    expect(out[2]).toBe(32256);
    expect(out[3]).toBe(-32256);
  });

  it.each([
    ['μ-law', pcmToUlaw, ulawToPcm],
    ['A-law', pcmToAlaw, alawToPcm],
  ] as const)('%s: every level encodes back to itself', (_, encode, decode) => {
    const levels = decode(everyByte);
    expect(Array.from(decode(encode(levels)))).toEqual(Array.from(levels));
  });

  it.each([
    ['μ-law', pcmToUlaw, ulawToPcm, 32_124],
    ['A-law', pcmToAlaw, alawToPcm, 32_256],
  ] as const)(
    '%s: every 16-bit sample comes back within half a step of its segment',
    (_, encode, decode, top) => {
      const back = decode(encode(everySample));
      let worst = 0;
      for (let i = 0; i < everySample.length; i += 1) {
        const v = everySample[i] as number;
        const magnitude = Math.min(Math.abs(v), top);
        // The steps are 1/16 of a segment's lower end (at least 2 for μ-law's first, 16 for A-law's), so
        // half a step is at most magnitude/32 plus the first segment's half step.
        const allowed = magnitude / 32 + 16 + (Math.abs(v) - magnitude);
        worst = Math.max(worst, Math.abs((back[i] as number) - v) - allowed);
      }
      expect(worst).toBeLessThanOrEqual(0);
      // Signs are kept.
      expect(back[everySample.indexOf(-20_000)]).toBeLessThan(0);
      expect(back[everySample.indexOf(20_000)]).toBeGreaterThan(0);
    },
  );
});
