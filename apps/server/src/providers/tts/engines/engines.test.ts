import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { characterTimes } from '@parla/audio';
import { PREMADE_VOICES } from '@parla/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnginePool } from '../../engines/engine-pool';
import { wordSpans } from '../engine-synthesis';
import type { EngineSynthesisRequest, EngineSynthesisResult } from '../tts-provider';
import { wholeWords } from './espeak-engine';
import { alignTokens } from './festival-engine';
import { estimateFliteWords, spokenSegments } from './flite-engine';

const text = 'Hello world, this is a test. It costs five dollars.';

let pool: EnginePool;
beforeAll(async () => {
  pool = new EnginePool({ size: 2, timeoutMs: 20_000, logger: pino({ level: 'silent' }) });
  await pool.start();
});
afterAll(() => pool.stop());

const durationMs = (r: EngineSynthesisResult) => (r.samples.length / r.sampleRate) * 1000;
const rms = (r: EngineSynthesisResult) =>
  Math.sqrt(r.samples.reduce((sum, s) => sum + s * s, 0) / Math.max(1, r.samples.length));

/** Real speech: 2–6 s for ten words, not silence, and word times in order inside the audio. */
function expectSpeech(result: EngineSynthesisResult, words = 10) {
  expect(durationMs(result)).toBeGreaterThan(2000);
  expect(durationMs(result)).toBeLessThan(6000);
  expect(rms(result)).toBeGreaterThan(300);
  expect(result.words.length).toBeGreaterThanOrEqual(words - 1);
  for (const [i, word] of result.words.entries()) {
    expect(word.endMs).toBeGreaterThanOrEqual(word.startMs);
    expect(word.endMs).toBeLessThanOrEqual(durationMs(result) + 50);
    if (i > 0) expect(word.startMs).toBeGreaterThanOrEqual(result.words[i - 1]?.startMs ?? 0);
  }
  expect(text.slice(result.words[0]?.start, result.words[0]?.end)).toBe('Hello');
}

describe('speech engines in the engine children', () => {
  it.each<[string, EngineSynthesisRequest]>([
    ['eSpeak-NG', { engine: 'espeak', voice: 'en-us', text }],
    ['flite slt', { engine: 'flite', voice: 'slt', text }],
    ['flite kal16', { engine: 'flite', voice: 'kal16', text }],
    ['festival slt-hts', { engine: 'festival', voice: 'cmu_us_slt_arctic_hts', text }],
  ])('%s speaks with word times', async (_, request) => {
    expectSpeech(await pool.synthesize(request));
  });

  it.each<[string, EngineSynthesisRequest]>([
    ['eSpeak-NG', { engine: 'espeak', voice: 'en-us', text }],
    ['flite', { engine: 'flite', voice: 'awb', text }],
    ['festival', { engine: 'festival', voice: 'cmu_us_slt_arctic_hts', text }],
  ])('%s speaks faster at rate 1.5 and slower at 0.7', async (_, request) => {
    const normal = durationMs(await pool.synthesize(request));
    const fast = durationMs(await pool.synthesize({ ...request, rate: 1.5 }));
    const slow = durationMs(await pool.synthesize({ ...request, rate: 0.7 }));
    expect(fast / normal).toBeLessThan(0.85);
    expect(slow / normal).toBeGreaterThan(1.2);
  });

  it('speaks other languages with eSpeak', async () => {
    const result = await pool.synthesize({
      engine: 'espeak',
      voice: 'es',
      text: 'Hola, ¿cómo estás? Muy bien, gracias.',
    });
    expect(durationMs(result)).toBeGreaterThan(1000);
    expect(result.words.map((w) => 'Hola, ¿cómo estás? Muy bien, gracias.'.slice(w.start, w.end))).toContain(
      'gracias',
    );
  });

  it('eSpeak stays sound across calls: long texts, then another language, the same samples each time', async () => {
    // One child, so the calls follow each other in the same module (this order once crashed it).
    const one = new EnginePool({ size: 1, timeoutMs: 20_000, logger: pino({ level: 'silent' }) });
    await one.start();
    try {
      const bytes = (r: EngineSynthesisResult) =>
        Buffer.from(r.samples.buffer, r.samples.byteOffset, r.samples.byteLength);
      const english = (t: string): EngineSynthesisRequest => ({
        engine: 'espeak',
        voice: 'en-us+f3',
        text: t,
      });
      const spanish: EngineSynthesisRequest = {
        engine: 'espeak',
        voice: 'es+f3',
        text: 'Hola, ¿cómo estás? Muy bien, gracias.',
      };
      const heard: Buffer[] = [];
      for (let i = 0; i < 2; i += 1) {
        await one.synthesize(english('A long sentence to keep the engine busy for a while. '.repeat(10)));
        await one.synthesize(english('Short one.'));
        await one.synthesize(english('The weather will be sunny with a light breeze from the west.'));
        heard.push(bytes(await one.synthesize(spanish)));
      }
      expect(heard[0]?.length).toBeGreaterThan(0);
      expect(heard[1]?.equals(heard[0] as Buffer)).toBe(true);
      // Another child speaks it alike.
      expect(bytes(await pool.synthesize(spanish)).equals(heard[0] as Buffer)).toBe(true);
    } finally {
      await one.stop();
    }
  }, 60_000);

  // A sentence's last word (Festival: its token's last daughter is the full stop, at 0 ms) and the part of a
  // word after a hyphen or an apostrophe (eSpeak-NG's word events stop there) once had no duration.
  it.each<[string, Omit<EngineSynthesisRequest, 'text'>]>([
    ['festival slt-hts', { engine: 'festival', voice: 'cmu_us_slt_arctic_hts' }],
    ['festival kal', { engine: 'festival', voice: 'kal_diphone' }],
    ['flite slt', { engine: 'flite', voice: 'slt' }],
    ['flite kal', { engine: 'flite', voice: 'kal' }],
    ['eSpeak-NG', { engine: 'espeak', voice: 'en-us' }],
  ])(
    '%s gives every character of every word a duration',
    async (_, voice) => {
      for (const spoken of [
        'the lazy dog',
        'Over the lazy dog.',
        "It isn't forty-two, it's the dog-house!",
      ]) {
        const result = await pool.synthesize({ ...voice, text: spoken });
        // Each written word is one timed word, whose characters share its time.
        const spans = wordSpans(spoken);
        expect(
          result.words.map(({ start, end }) => ({ start, end })),
          spoken,
        ).toEqual(spans);
        const times = characterTimes(spoken, result.words, durationMs(result));
        const untimed = spans.flatMap(({ start, end }) =>
          times
            .slice(start, end)
            .flatMap(([from, to], k) =>
              to > from ? [] : [`${spoken[start + k]}@${start + k} ${from}–${to}`],
            ),
        );
        expect(untimed, spoken).toEqual([]);
      }
    },
    30_000,
  );

  it('festival reads any text as text: quotes and brackets cannot break out of its Scheme string', async () => {
    const marker = path.join(os.tmpdir(), `parla-festival-injection-${process.pid}`);
    const injection = `Hello ") (system "touch ${marker}") (set! x "`;
    const result = await pool.synthesize({
      engine: 'festival',
      voice: 'cmu_us_slt_arctic_hts',
      text: injection,
    });
    expect(result.samples.length).toBeGreaterThan(0);
    expect(fs.existsSync(marker)).toBe(false);
    // The long-lived festival process reads on.
    expectSpeech(await pool.synthesize({ engine: 'festival', voice: 'cmu_us_slt_arctic_hts', text }));
  });

  it('fails a call with an unknown voice cleanly, and the child lives on', async () => {
    await expect(pool.synthesize({ engine: 'flite', voice: 'nobody', text })).rejects.toThrow(
      'Unknown flite voice',
    );
    expect(pool.readyCount).toBe(2);
  });
});

const SAMPLE_TEXT: Record<string, string> = {
  en: 'Good morning, how are you today?',
  es: 'Buenos días, ¿cómo estás hoy?',
  fr: "Bonjour, comment allez-vous aujourd'hui ?",
  de: 'Guten Morgen, wie geht es dir heute?',
  it: 'Buongiorno, come stai oggi?',
  pt: 'Bom dia, como você está hoje?',
  hi: 'नमस्ते, आप कैसे हैं?',
  zh: '你好，今天你好吗？',
  ja: 'こんにちは、おげんきですか。',
  pl: 'Dzień dobry, jak się masz?',
  nl: 'Goedemorgen, hoe gaat het vandaag?',
};

describe('every premade voice', () => {
  it.each(PREMADE_VOICES.map((v) => [v.name, v] as const))(
    '%s speaks in each of its renditions',
    async (_, voice) => {
      const text = SAMPLE_TEXT[voice.language] ?? SAMPLE_TEXT.en ?? '';
      const renditions =
        voice.language === 'en' ? [voice.primary, voice.espeak, voice.flite] : [voice.primary, voice.espeak];
      for (const rendition of renditions) {
        const result = await pool.synthesize({ ...rendition, text });
        expect(durationMs(result), `${rendition.engine} ${rendition.voice}`).toBeGreaterThan(700);
        expect(rms(result), `${rendition.engine} ${rendition.voice}`).toBeGreaterThan(300);
      }
    },
  );
});

describe('word timing helpers', () => {
  it('reads flite phone times into spoken stretches, on one time line across sentences', () => {
    expect(spokenSegments('pau:0.164 hh:0.255 ax:0.304 pau:0.500 t:0.700 pau:0.900')).toEqual([
      { startMs: 164, endMs: 304 },
      { startMs: 500, endMs: 700 },
    ]);
    expect(spokenSegments('pau:0.1 a:0.3 pau:0.5 pau:0.1 b:0.4 pau:0.6')).toEqual([
      { startMs: 100, endMs: 300 },
      { startMs: 600, endMs: 900 },
    ]);
  });

  it('spreads words over the stretch of their phrase', () => {
    const words = estimateFliteWords('Hi there, friend.', 'pau:0.1 h:0.3 t:0.6 pau:0.8 f:1.2 pau:1.4', 1400);
    expect(words.map((w) => [w.start, w.end])).toEqual([
      [0, 2],
      [3, 8],
      [10, 16],
    ]);
    expect(words[0]?.startMs).toBe(100);
    expect(words[1]?.endMs).toBe(600);
    expect(words[2]).toMatchObject({ startMs: 800, endMs: 1200 });
  });

  it('widens eSpeak word events to the whole written word they start in', () => {
    const text = "It isn't forty-two, dog-house.";
    const events = [
      { start: 0, end: 2, ms: 0 },
      { start: 3, end: 6, ms: 100 }, // "isn"
      { start: 9, end: 14, ms: 300 }, // "forty"
      { start: 15, end: 18, ms: 500 }, // "two", inside the word begun
      { start: 20, end: 23, ms: 700 }, // "dog"
    ];
    expect(wholeWords(text, events).map((w) => [text.slice(w.start, w.end), w.ms])).toEqual([
      ['It', 0],
      ["isn't", 100],
      ['forty-two', 300],
      ['dog-house', 700],
    ]);
    // A spoken symbol outside any word stays as eSpeak gave it.
    expect(wholeWords('a & b', [{ start: 2, end: 3, ms: 50 }])).toEqual([{ start: 2, end: 3, ms: 50 }]);
  });

  it('places festival tokens on the input, scaled by a tempo change', () => {
    const words = alignTokens('It costs $5.', 'T\tIt\t0.1\t0.2\nT\tcosts\t0.2\t0.5\nT\t$5\t0.5\t1.0\n', 0.5);
    expect(words).toEqual([
      { start: 0, end: 2, startMs: 50, endMs: 100 },
      { start: 3, end: 8, startMs: 100, endMs: 250 },
      { start: 9, end: 11, startMs: 250, endMs: 500 },
    ]);
  });
});
