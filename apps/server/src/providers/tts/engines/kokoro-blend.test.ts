import { formatKokoroBlend, parseKokoroBlend } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { modelsUnavailable, skipWithout } from '../../../test/needs-models';
import { kokoroVoiceStyle } from './kokoro-engine';
import { kokoroFiles } from './neural-model-files';

/** Kokoro voices as weighted blends of style vectors (issue 27 item 5). */
describe('Kokoro blend notation', () => {
  it('reads names and weights and normalises the weights', () => {
    expect(parseKokoroBlend('af_heart*3+bf_emma*1')).toEqual([
      { voice: 'af_heart', weight: 0.75 },
      { voice: 'bf_emma', weight: 0.25 },
    ]);
    expect(parseKokoroBlend('af_heart')).toEqual([{ voice: 'af_heart', weight: 1 }]);
    expect(parseKokoroBlend('af_heart+af_bella')).toEqual([
      { voice: 'af_heart', weight: 0.5 },
      { voice: 'af_bella', weight: 0.5 },
    ]);
  });

  it('refuses bad blends, saying what is wrong', () => {
    expect(() => parseKokoroBlend('af_heart*0+bf_emma')).toThrow(/weight "0": a weight is a number above 0/);
    expect(() => parseKokoroBlend('af_heart*-1+bf_emma')).toThrow(/a weight is a number above 0/);
    expect(() => parseKokoroBlend('af_heart*NaN+bf_emma')).toThrow(/a weight is a number above 0/);
    expect(() => parseKokoroBlend('af_heart*1e400+bf_emma')).toThrow(/a weight is a number above 0/);
    expect(() => parseKokoroBlend('af_heart+af_heart')).toThrow(/names a voice twice/);
    expect(() => parseKokoroBlend('af_heart+')).toThrow(/not a voice name/);
    expect(() => parseKokoroBlend('../etc/passwd*1+af_heart')).toThrow(/not a voice name/);
    expect(() => parseKokoroBlend('af_heart*0.5*2')).toThrow(/not a voice name/);
    expect(() => parseKokoroBlend('af_a+af_b+af_c+af_d+af_e')).toThrow(/at most 4 may be blended/);
  });

  it('writes a blend back, a blend of one as its plain name', () => {
    expect(formatKokoroBlend(parseKokoroBlend('af_heart*2+bf_emma*1'))).toBe('af_heart*0.667+bf_emma*0.333');
    expect(formatKokoroBlend([{ voice: 'af_heart', weight: 1 }])).toBe('af_heart');
    expect(
      formatKokoroBlend([
        { voice: 'af_heart', weight: 0.9999 },
        { voice: 'af_bella', weight: 0.0001 },
      ]),
    ).toBe('af_heart');
  });
});

const noKokoro = modelsUnavailable('kokoro-82m');

describe('Kokoro blended styles (the style files of the model store)', () => {
  it('a blend is the weighted sum of its voices, unlike either of them', async (context) => {
    skipWithout(context, noKokoro);
    const dir = kokoroFiles().voicesDir;
    const heart = await kokoroVoiceStyle(dir, 'af_heart');
    const emma = await kokoroVoiceStyle(dir, 'bf_emma');
    const blend = await kokoroVoiceStyle(dir, 'af_heart*0.6+bf_emma*0.4');
    const distance = (a: Float32Array, b: Float32Array) =>
      Math.sqrt(a.reduce((sum, v, i) => sum + (v - (b[i] as number)) ** 2, 0));
    expect(blend).toHaveLength(heart.length);
    expect(distance(blend, heart)).toBeGreaterThan(0.1 * distance(heart, emma));
    expect(distance(blend, emma)).toBeGreaterThan(0.1 * distance(heart, emma));
    for (const i of [0, 1000, 65_279, blend.length - 1])
      expect(blend[i]).toBeCloseTo(0.6 * (heart[i] as number) + 0.4 * (emma[i] as number), 5);
    // The same blend written with other weights of the same ratio is the same voice, mixed once.
    expect(await kokoroVoiceStyle(dir, 'af_heart*3+bf_emma*2')).toBe(blend);
  });

  it('refuses a blend naming a voice with no style file, and a malformed one', async (context) => {
    skipWithout(context, noKokoro);
    const dir = kokoroFiles().voicesDir;
    await expect(kokoroVoiceStyle(dir, 'af_heart*0.5+af_nobody*0.5')).rejects.toThrow(
      /Unknown Kokoro voice "af_nobody"/,
    );
    await expect(kokoroVoiceStyle(dir, 'af_heart*0.5+bf_emma*x')).rejects.toThrow(
      /a weight is a number above 0/,
    );
  });
});
