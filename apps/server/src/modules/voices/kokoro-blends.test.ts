import type { VoiceProfile } from '@parla/audio';
import {
  describeVoice,
  findModel,
  parseKokoroBlend,
  speakingRendition,
  type TtsModel,
} from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import {
  cloneBlend,
  descriptionSeed,
  designBlends,
  designShift,
  designsOnKokoro,
  kokoroCandidates,
} from './kokoro-blends';
import { KOKORO_VOICE_MEASURES } from './kokoro-voice-profiles';
import { ownSpeaking } from './speaking-voice';
import { previewRendition } from './voice-previews';
import type { VoiceRow } from './voices.tables';

/** Voice design and instant clones on Kokoro (issue 27 item 5): which style vectors a new voice blends. */

const voicesOf = (blend: string) => parseKokoroBlend(blend).map((p) => p.voice);
const design = (description: string, seed: number) => {
  const traits = describeVoice(description);
  return designBlends(traits, traits.understood, seed);
};

describe('designed blends', () => {
  it('are the same for the same description and seed, and change with the seed', () => {
    const a = design('A warm middle-aged woman with a British accent, calm and clear.', 7);
    const b = design('A warm middle-aged woman with a British accent, calm and clear.', 7);
    const c = design('A warm middle-aged woman with a British accent, calm and clear.', 8);
    expect(a.map((d) => d.blend)).toEqual(b.map((d) => d.blend));
    expect(c.map((d) => d.blend)).not.toEqual(a.map((d) => d.blend));
  });

  it('are three different blends of two voices or more', () => {
    const blends = design('An energetic young man, American, bright and friendly.', 1234);
    expect(blends).toHaveLength(3);
    expect(new Set(blends.map((d) => d.blend)).size).toBe(3);
    for (const d of blends) {
      const parts = parseKokoroBlend(d.blend);
      expect(parts.length).toBeGreaterThanOrEqual(2);
      // The main part (the designed voice's base, and its language and phonemizer) is written first.
      expect(parts[0]?.weight).toBeGreaterThanOrEqual(0.5);
      expect(d.base.kokoro?.voice).toBe(parts[0]?.voice);
    }
  });

  it('respect the gender and accent asked for, over many seeds', () => {
    for (let seed = 0; seed < 40; seed++) {
      for (const d of design('An old British man with a deep, gravelly voice.', seed))
        for (const voice of voicesOf(d.blend)) expect(voice).toMatch(/^bm_/);
      for (const d of design('A young American woman, soft and gentle.', seed))
        for (const voice of voicesOf(d.blend)) expect(voice).toMatch(/^af_/);
      for (const d of design('A Spanish man who narrates documentaries.', seed))
        for (const voice of voicesOf(d.blend)) expect(voice).toMatch(/^em_/);
    }
  });

  it('lean to the lower voices for a deep description and the higher for a high one', () => {
    const meanHz = (description: string) => {
      const hz = Array.from({ length: 30 }, (_, seed) => design(description, seed)).flatMap((blends) =>
        blends.flatMap((d) =>
          parseKokoroBlend(d.blend).map((p) => (KOKORO_VOICE_MEASURES[p.voice]?.medianHz ?? 0) * p.weight),
        ),
      );
      return hz.reduce((sum, v) => sum + v, 0) / 90;
    };
    expect(meanHz('A deep, low American woman’s voice.')).toBeLessThan(
      meanHz('A high, squeaky American woman’s voice.'),
    );
  });

  it('are made where Kokoro has voices of the language and accent, and not elsewhere', () => {
    expect(designsOnKokoro(describeVoice('A calm French woman reading the news.'))).toBe(true);
    expect(designsOnKokoro(describeVoice('A friendly Italian man, middle-aged.'))).toBe(true);
    // No Kokoro voice: German, a Scottish accent; Mandarin and Japanese stay classic (tts-catalog.ts).
    expect(designsOnKokoro(describeVoice('A German man with a deep voice.'))).toBe(false);
    expect(designsOnKokoro(describeVoice('A Scottish woman telling a story.'))).toBe(false);
    expect(designsOnKokoro(describeVoice('A Mandarin speaking young woman.'))).toBe(false);
  });

  it('take a seed from the description when the request has none', () => {
    expect(descriptionSeed('A calm  Voice ')).toBe(descriptionSeed('a calm voice'));
    expect(descriptionSeed('A calm voice')).not.toBe(descriptionSeed('A calm voices'));
  });

  it('are moved no further than the description asks: not at all for a neutral one', () => {
    const designed = { targetHz: 190, targetTract: 2000 };
    const measured = { medianHz: 180, formantsHz: [400, 1500, 2700] as [number, number, number] };
    expect(designShift({ pitch: 1, formant: 1 }, designed, measured)).toEqual({ pitch: 1, formant: 1 });
    expect(designShift({ pitch: 1.2, formant: 1 }, designed, measured).pitch).toBeCloseTo(190 / 180, 5);
    expect(designShift({ pitch: 1.4, formant: 1 }, { ...designed, targetHz: 400 }, measured).pitch).toBe(1.1);
  });
});

describe('cloned blends', () => {
  it('are the blend of the language’s voices of the gender nearest the sample', () => {
    const women = kokoroCandidates('en').filter((c) => c.gender === 'female');
    const target = women[0]?.measure as (typeof women)[number]['measure'];
    const exact = cloneBlend(target, 'en', 'female');
    expect(exact?.distance).toBe(0);
    expect(exact?.blend).toBe(women[0]?.kokoro);
    // A sample between two voices gets a blend: nearer than either voice alone.
    const low = cloneBlend({ medianHz: 120, formantsHz: [450, 1450, 2500] }, 'en', 'male');
    const parts = parseKokoroBlend(low?.blend ?? '');
    for (const p of parts) expect(p.voice).toMatch(/^[ab]m_/);
    const alone = Math.min(
      ...kokoroCandidates('en')
        .filter((c) => c.gender === 'male')
        .map((c) => cloneBlend(c.measure, 'en', 'male')?.distance ?? 0),
    );
    expect(alone).toBe(0);
    expect(cloneBlend({ medianHz: 120, formantsHz: [450, 1450, 2500] }, 'en', 'male')).toEqual(low);
  });

  it('are none where Kokoro has no voice of the language', () => {
    expect(cloneBlend({ medianHz: 120, formantsHz: null }, 'de', 'male')).toBeUndefined();
    expect(cloneBlend({ medianHz: 220, formantsHz: null }, 'zh', 'female')).toBeUndefined();
  });
});

describe('own voices on the neural model', () => {
  const neural = findModel('parla_neural_v1') as TtsModel;
  const multilingual = findModel('eleven_multilingual_v2') as TtsModel;
  const row = (kokoroVoice: string | null) =>
    ({
      id: 'v1',
      name: 'Mine',
      description: null,
      labels: {},
      category: 'cloned',
      language: 'en',
      baseVoiceId: 'pMsXgVXv3BLzUgSXRplE', // Sarah: classic primary, Kokoro af_heart
      profile: { pitch: { medianHz: 150 } } as VoiceProfile,
      settings: null,
      liveModerationEnabled: false,
      previewText: null,
      kokoroVoice,
    }) as unknown as VoiceRow;

  it('speak their saved blend through Kokoro', () => {
    const voice = ownSpeaking(row('af_heart*0.7+af_bella*0.3'));
    expect(speakingRendition(neural, voice as NonNullable<typeof voice>)).toEqual({
      engine: 'kokoro',
      voice: 'af_heart*0.7+af_bella*0.3',
    });
  });

  it('have their preview spoken as the default model speaks them: the blend, or the classic base', () => {
    const blended = ownSpeaking(row('af_heart*0.7+af_bella*0.3')) as NonNullable<
      ReturnType<typeof ownSpeaking>
    >;
    expect(previewRendition({ models: undefined }, blended)).toEqual({
      engine: 'kokoro',
      voice: 'af_heart*0.7+af_bella*0.3',
    });
    const before = ownSpeaking(row(null)) as NonNullable<ReturnType<typeof ownSpeaking>>;
    expect(previewRendition({ models: undefined }, before)).toEqual(before.primary);
  });

  it('made before (no blend saved) keep their classic engine under the neural model', () => {
    const voice = ownSpeaking(row(null)) as NonNullable<ReturnType<typeof ownSpeaking>>;
    // Its base (Sarah) speaks Kokoro now, but the voice was measured against her classic rendition.
    expect(voice.kokoro).toBeUndefined();
    expect(speakingRendition(multilingual, voice)).toEqual(voice.primary);
    expect(voice.primary.engine).not.toBe('kokoro');
    expect(speakingRendition(neural, voice)).toBeUndefined();
  });
});

describe('a description whose language has one Kokoro voice of its gender', () => {
  it('varies it with a minor share of the gender’s voices of other languages, the language’s voice first', () => {
    const blends = design('A calm Spanish woman reading the news.', 3);
    expect(new Set(blends.map((d) => d.blend)).size).toBe(3);
    for (const d of blends) {
      const [main, ...rest] = parseKokoroBlend(d.blend);
      expect(main?.voice).toBe('ef_dora');
      expect(main?.weight).toBeGreaterThanOrEqual(0.7);
      for (const p of rest) expect(p.voice).toMatch(/^[a-z]f_/);
    }
  });
});

describe('a description naming no gender in a language of one Kokoro voice', () => {
  it('blends only voices of that voice’s gender', () => {
    for (let seed = 0; seed < 20; seed++)
      for (const d of design('A calm French voice reading the news.', seed)) {
        const [main, ...rest] = parseKokoroBlend(d.blend);
        expect(main?.voice).toBe('ff_siwis');
        for (const p of rest) expect(p.voice).toMatch(/^[a-z]f_/);
      }
  });
});
