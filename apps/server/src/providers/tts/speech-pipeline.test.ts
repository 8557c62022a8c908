import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnginePool } from '../engines/engine-pool';
import { characterTimes, originalTimes } from './alignment';
import { engineProsody, peakNormalize, type SpeechSettings, synthesizeSpeech } from './speech-pipeline';
import { normalizeEnglish } from './text-normalization';

let pool: EnginePool;
beforeAll(async () => {
  pool = new EnginePool({ size: 2, timeoutMs: 20_000, logger: pino({ level: 'silent' }) });
  await pool.start();
});
afterAll(() => pool.stop());

const settings: SpeechSettings = { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: true };
const nonDecreasing = (values: number[]) => values.every((v, i) => i === 0 || v >= (values[i - 1] ?? 0));

describe('the speech pipeline', () => {
  it('speaks normalised text and aligns every written character, in order', async () => {
    const text = 'It costs $5 on May 31, 2024. Call me at 3:30!';
    const result = await synthesizeSpeech(pool, {
      text,
      voice: { engine: 'flite', voice: 'kal16' },
      settings,
      normalize: true,
    });
    const seconds = result.samples.length / result.sampleRate;
    expect(result.normalized.text).toBe(
      'It costs five dollars on May thirty-first, twenty twenty-four. Call me at three thirty!',
    );
    expect(result.alignment.characters.join('')).toBe(text);
    expect(result.normalizedAlignment.characters.join('')).toBe(result.normalized.text);
    expect(nonDecreasing(result.alignment.character_start_times_seconds)).toBe(true);
    expect(result.alignment.character_end_times_seconds.at(-1)).toBeLessThanOrEqual(seconds + 0.01);
    // "$5" spans the time of "five dollars".
    const dollar = text.indexOf('$');
    const five = result.normalized.text.indexOf('five');
    expect(result.alignment.character_start_times_seconds[dollar]).toBeCloseTo(
      result.normalizedAlignment.character_start_times_seconds[five] ?? -1,
      2,
    );
  });

  it('keeps the sentences in order when they run in parallel, with exact eSpeak word times', async () => {
    const text = 'First sentence here. Second one follows. Third is the last.';
    const result = await synthesizeSpeech(pool, {
      text,
      voice: { engine: 'espeak', voice: 'en-us' },
      settings,
      normalize: true,
    });
    const starts = result.alignment.character_start_times_seconds;
    expect(nonDecreasing(starts)).toBe(true);
    expect(starts[text.indexOf('Third')]).toBeGreaterThan(starts[text.indexOf('Second')] ?? 0);
  });

  it('speaks faster with speed 1.2 than 0.7, and boosts the peak to −1 dBFS', async () => {
    const request = {
      text: 'A steady test sentence for the speed setting.',
      voice: { engine: 'flite' as const, voice: 'slt' },
      normalize: false,
    };
    const fast = await synthesizeSpeech(pool, { ...request, settings: { ...settings, speed: 1.2 } });
    const slow = await synthesizeSpeech(pool, { ...request, settings: { ...settings, speed: 0.7 } });
    expect(fast.samples.length / slow.samples.length).toBeLessThan(0.75);
    expect(Math.max(...fast.samples.map(Math.abs))).toBe(Math.round(32767 * 10 ** (-1 / 20)));
  });

  it('gives identical bytes for identical input', async () => {
    const request = {
      text: 'Same words, same sound.',
      voice: { engine: 'espeak' as const, voice: 'en-us+f3' },
      settings,
      normalize: true,
    };
    const a = await synthesizeSpeech(pool, request);
    const b = await synthesizeSpeech(pool, request);
    expect(Buffer.from(a.samples.buffer).equals(Buffer.from(b.samples.buffer))).toBe(true);
  });
});

describe('settings and alignment rules', () => {
  it('maps stability and style onto the intonation range, speed onto the rate', () => {
    expect(engineProsody({ engine: 'flite', voice: 'slt' }, { ...settings, stability: 1 })).toMatchObject({
      range: 0.5,
      rate: 1,
    });
    expect(
      engineProsody({ engine: 'flite', voice: 'slt' }, { ...settings, stability: 0, style: 1 }).range,
    ).toBe(2);
    expect(
      engineProsody({ engine: 'flite', voice: 'slt', rate: 1.05 }, { ...settings, speed: 1.2 }).rate,
    ).toBeCloseTo(1.26);
  });

  it('spreads a word over its characters and gives the gaps the silence between words', () => {
    const times = characterTimes(
      'ab  cd',
      [
        { start: 0, end: 2, startMs: 0, endMs: 200 },
        { start: 4, end: 6, startMs: 300, endMs: 500 },
      ],
      600,
    );
    expect(times).toEqual([
      [0, 100],
      [100, 200],
      [200, 300],
      [200, 300],
      [300, 400],
      [400, 500],
    ]);
  });

  it('spreads a replaced stretch over the written characters', () => {
    const normalized = normalizeEnglish('$5!');
    const spoken = characterTimes(
      normalized.text,
      [
        { start: 0, end: 4, startMs: 0, endMs: 400 },
        { start: 5, end: 12, startMs: 400, endMs: 1000 },
      ],
      1100,
    );
    const times = originalTimes(normalized, spoken, 3);
    expect(times[0]?.[0]).toBe(0);
    expect(times[1]?.[1]).toBe(1000);
    expect(times[2]?.[0]).toBe(1000);
  });

  it('leaves silence alone when boosting', () => {
    expect([...peakNormalize(new Int16Array([0, 0]))]).toEqual([0, 0]);
  });
});
