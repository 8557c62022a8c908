import { measureProsody, type ProsodyMeasures } from '@parla/audio';
import type { EngineVoice } from '@parla/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { useWarmEnginePool } from '../../test/warm-engine-pool';
import {
  joinSentences,
  normalizeFor,
  type SpeechRequest,
  type SpeechResult,
  type SpeechSentence,
  type SpeechSettings,
  speakSentences,
} from './speech-pipeline';

/*
 * Issue 18 item 3: every voice setting changes the audio in the direction it promises, on every engine and
 * kind of voice — measured (pitch spread, sentence timing, level swings, loudness, presence, distance to a
 * clone's profile: modules/voices/voice-similarity.test.ts), never compared as bytes.
 * bench/voice-settings.measure.ts prints the same figures.
 */

const enginePool = useWarmEnginePool();

const TEXT =
  'The old lighthouse keeper climbed the stairs every evening. He lit the lamp and watched the ships. Nobody knew what he wrote.';

/** One voice of each way the pipeline honours settings: natively, or by its pass after the engine. */
const VOICES: [string, EngineVoice][] = [
  ['Festival (HTS, pass after the engine)', { engine: 'festival', voice: 'cmu_us_slt_arctic_hts' }],
  ['Flite slt (pitch targets)', { engine: 'flite', voice: 'slt' }],
  ['Flite rms (pass after the engine)', { engine: 'flite', voice: 'rms' }],
  ['eSpeak-NG (pitch and range)', { engine: 'espeak', voice: 'en-us+f3' }],
  // The default model's voices (issue 27 item 5): speed native, the rest through the passes after it.
  ['Kokoro (neural, pass after the engine)', { engine: 'kokoro', voice: 'af_heart' }],
];

/** Kokoro's tests skip, saying why, where the model store lacks its files. */
const noKokoro = modelsUnavailable('kokoro-82m');

const BASE: SpeechSettings = { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: false };

const request = (
  voice: EngineVoice,
  change: Partial<SpeechSettings>,
  extra: Partial<SpeechRequest> = {},
) => ({
  text: TEXT,
  voice,
  normalize: false,
  settings: { ...BASE, ...change },
  ...extra,
});

interface Rendition {
  speech: SpeechResult;
  /** Each sentence's length in seconds, as the pipeline spoke it. */
  sentenceSeconds: number[];
  measures: () => ProsodyMeasures;
}

/**
 * Speaks the text as synthesizeSpeech does (its sentences from speakSentences, joined by joinSentences),
 * keeping each sentence's length as well, so one rendition serves both the whole's measures and the pace
 * of its sentences.
 */
async function render(
  voice: EngineVoice,
  change: Partial<SpeechSettings>,
  seed?: number,
): Promise<Rendition> {
  const spoken = request(voice, change, { seed });
  const normalized = normalizeFor(spoken);
  const parts: SpeechSentence[] = [];
  for await (const s of speakSentences(enginePool(), spoken, normalized)) parts.push(s);
  const speech = joinSentences(spoken.text, normalized, parts);
  let measures: ProsodyMeasures | undefined;
  return {
    speech,
    sentenceSeconds: parts.map((s) => s.samples.length / s.sampleRate),
    measures: () => {
      measures ??= measureProsody({ sampleRate: speech.sampleRate, samples: speech.samples });
      return measures;
    },
  };
}

/**
 * The renditions of this file, by voice, settings and seed: the same request asked twice is spoken once
 * (the default settings serve all three tests, stability 0 two comparisons): Kokoro takes seconds a
 * rendition on the CI machine (13 renditions a voice before, 7 now). The test of determinism calls `render`
 * for a rendition of its own.
 */
const renditions = new Map<string, Promise<Rendition>>();
function speak(voice: EngineVoice, change: Partial<SpeechSettings>, seed?: number): Promise<Rendition> {
  const key = JSON.stringify([voice, { ...BASE, ...change }, seed ?? 0]);
  let made = renditions.get(key);
  if (!made) {
    made = render(voice, change, seed);
    renditions.set(key, made);
    // A failed rendition fails the test that asked for it; the next test asks the engines again.
    made.catch(() => renditions.delete(key));
  }
  return made;
}

const sentenceSeconds = async (voice: EngineVoice, change: Partial<SpeechSettings>, seed?: number) =>
  (await speak(voice, change, seed)).sentenceSeconds;

/** How much sentences' durations differ from a reference's, sentence by sentence (SD of log ratios). */
function timingSpread(durations: number[], reference: number[]): number {
  const logs = durations.map((d, i) => Math.log(d / (reference[i] ?? d)));
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  return Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / logs.length);
}

/** Level SD (dB) over the same 10 ms frames of two equally long recordings: those where `a` speaks. */
function levelSpreads(a: Int16Array, b: Int16Array, sampleRate: number): [number, number] {
  const block = Math.round(sampleRate / 100);
  const levels = (x: Int16Array) => {
    const out: number[] = [];
    for (let at = 0; at + block <= x.length; at += block) {
      let sum = 0;
      for (let i = at; i < at + block; i++) sum += ((x[i] as number) / 32768) ** 2;
      out.push(10 * Math.log10(sum / block + 1e-12));
    }
    return out;
  };
  const la = levels(a);
  const lb = levels(b);
  const loudest = Math.max(...la);
  const frames = la.flatMap((level, i) => (level > loudest - 30 && i < lb.length ? [i] : []));
  const sd = (values: number[]) => {
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
  };
  return [sd(frames.map((i) => la[i] as number)), sd(frames.map((i) => lb[i] as number))];
}

const pitchSd = (m: ProsodyMeasures) => m.pitch.sdSemitones ?? Number.NaN;

describe.each(VOICES)('voice settings on %s', { timeout: 240_000 }, (_, voice) => {
  beforeEach((context) => {
    if (voice.engine === 'kokoro') skipWithout(context, noKokoro);
  });

  it('stability: the pitch moves more and the sentences vary more in pace as stability falls', async () => {
    const steady = await speak(voice, { stability: 1 });
    const normal = await speak(voice, { stability: 0.5 });
    const lively = await speak(voice, { stability: 0 });
    const sd = [steady, normal, lively].map((r) => pitchSd(r.measures()));
    console.info(
      `${voice.engine}/${voice.voice} pitch SD at stability 1, 0.5, 0: ${sd.map((v) => v.toFixed(2)).join(', ')} st`,
    );
    expect(sd[1]).toBeGreaterThan((sd[0] as number) * 1.1);
    expect(sd[2]).toBeGreaterThan((sd[1] as number) * 1.1);

    const reference = await sentenceSeconds(voice, { stability: 1 });
    const atHalf = timingSpread(await sentenceSeconds(voice, { stability: 0.5 }), reference);
    const atZero = timingSpread(await sentenceSeconds(voice, { stability: 0 }), reference);
    const otherSeed = await sentenceSeconds(voice, { stability: 0 }, 7);
    console.info(
      `${voice.engine}/${voice.voice} sentence pace spread at 0.5, 0: ${(atHalf * 100).toFixed(1)} %, ${(atZero * 100).toFixed(1)} %`,
    );
    expect(atZero).toBeGreaterThan(0.015);
    expect(atZero).toBeGreaterThan(atHalf + 0.01);
    // The seed picks the pattern: another seed, other paces; the same seed, the same ones.
    expect(timingSpread(otherSeed, await sentenceSeconds(voice, { stability: 0 }))).toBeGreaterThan(0.005);
    expect((await render(voice, { stability: 0 }, 7)).sentenceSeconds).toEqual(otherSeed);
  });

  it('style: a wider intonation and larger swings of energy', async () => {
    const plain = await speak(voice, { style: 0 });
    const styled = await speak(voice, { style: 1 });
    console.info(
      `${voice.engine}/${voice.voice} pitch SD at style 0, 1: ${pitchSd(plain.measures()).toFixed(2)}, ${pitchSd(styled.measures()).toFixed(2)} st`,
    );
    expect(pitchSd(styled.measures())).toBeGreaterThan(pitchSd(plain.measures()) * 1.05);
    expect(styled.speech.samples.length).toBe(plain.speech.samples.length);
    const [before, after] = levelSpreads(
      plain.speech.samples,
      styled.speech.samples,
      plain.speech.sampleRate,
    );
    console.info(
      `${voice.engine}/${voice.voice} level SD at style 0, 1: ${before.toFixed(2)}, ${after.toFixed(2)} dB`,
    );
    expect(after).toBeGreaterThan(before + 0.5);
  });

  it('speaker boost: louder, with more presence, peaks under −1 dBFS', async () => {
    const off = (await speak(voice, { useSpeakerBoost: false })).measures();
    const on = (await speak(voice, { useSpeakerBoost: true })).measures();
    console.info(
      `${voice.engine}/${voice.voice} boost off → on: RMS ${off.level.rmsDbfs?.toFixed(1)} → ${on.level.rmsDbfs?.toFixed(1)} dBFS, presence ${off.spectrum.presenceDb?.toFixed(1)} → ${on.spectrum.presenceDb?.toFixed(1)} dB`,
    );
    expect(on.level.rmsDbfs as number).toBeGreaterThan((off.level.rmsDbfs as number) + 1.5);
    expect(on.spectrum.presenceDb as number).toBeGreaterThan((off.spectrum.presenceDb as number) + 1.5);
    expect(on.level.peakDbfs).toBeLessThanOrEqual(-0.99);
  });
});
