import { clamp, seededRandom } from '@parla/audio';
import {
  formatKokoroBlend,
  KOKORO_LANGUAGES,
  type KokoroBlendPart,
  kokoroVoiceLanguage,
  PREMADE_VOICES,
  type PremadeVoice,
  type VoiceTraits,
} from '@parla/contracts';
import { KOKORO_VOICE_MEASURES } from './kokoro-voice-profiles';

/*
 * Designed voices and instant clones on Kokoro (issue 27 item 5): a new voice is a blend of the style
 * vectors of its language's Kokoro voices (the engine mixes them, kokoro-engine.ts kokoroVoiceStyle).
 * A description picks the voices by gender, accent, age, tone and pitch, with seeded variation; a clone
 * gets the blend whose measured pitch and formants are nearest its samples'. Both are pure: the choice
 * reads the voices' measures kept in kokoro-voice-profiles.ts, no engine.
 */

/** A Kokoro voice on its own, measured saying REFERENCE_TEXT: median pitch and F1–F3, in Hz. */
export interface KokoroVoiceMeasure {
  medianHz: number;
  formantsHz: [number, number, number];
}

/** One Kokoro voice a blend may use: its name, the premade voice that speaks it, and how it sounds. */
export interface KokoroCandidate {
  kokoro: string;
  premade: PremadeVoice;
  gender: 'female' | 'male';
  measure: KokoroVoiceMeasure;
}

/**
 * Languages whose new voices are not made on Kokoro: its Mandarin loses the tones and its Japanese reads
 * kana only through eSpeak (tts-catalog.ts REBASED_ON_KOKORO), so the premade voices there stay classic
 * and so do designs and clones.
 */
const CLASSIC_ONLY = new Set(['ja', 'zh']);

/** The Kokoro voices of a language (each once, as the premade voice carrying it), with their measures. */
export function kokoroCandidates(language: string): KokoroCandidate[] {
  if (CLASSIC_ONLY.has(language)) return [];
  return PREMADE_VOICES.flatMap((premade) => {
    const kokoro = premade.kokoro?.voice;
    const measure = kokoro ? KOKORO_VOICE_MEASURES[kokoro] : undefined;
    if (!kokoro || !measure || kokoroVoiceLanguage(kokoro)?.language_id !== language) return [];
    return [{ kokoro, premade, gender: kokoro.charAt(1) === 'f' ? 'female' : 'male', measure } as const];
  });
}

/**
 * The seed of a description when the request gives none (FNV-1a of its words, lower-cased): the same
 * description designs the same voices, as the API's `seed` promises for the same seed and inputs.
 */
export function descriptionSeed(description: string): number {
  let hash = 0x811c9dc5;
  for (const char of description.trim().toLowerCase().replace(/\s+/g, ' ')) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** A voice's size of vocal tract as one number: the geometric mean of F2 and F3 (as formantScale reads it). */
const tract = (m: KokoroVoiceMeasure) => Math.sqrt(m.formantsHz[1] * m.formantsHz[2]);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** The languages new voices may be made in on Kokoro (those with Kokoro voices, less CLASSIC_ONLY). */
const KOKORO_DESIGN_LANGUAGES = [
  ...new Set(Object.values(KOKORO_LANGUAGES).map((l) => l.language_id)),
].filter((id) => !CLASSIC_ONLY.has(id));

/** A blend a description chose: its notation, the premade voice of its main part, and what it aims at. */
export interface DesignedBlend {
  blend: string;
  /** The premade voice of the blend's largest part: the designed voice's base (its classic renditions). */
  base: PremadeVoice;
  /** The median pitch and vocal-tract size the description asks for (Hz), for the final small shift. */
  targetHz: number;
  targetTract: number;
}

/** The voices a description may draw from: its language's, of its gender and accent when it names them. */
function designPool(traits: VoiceTraits): KokoroCandidate[] {
  let pool = kokoroCandidates(traits.language ?? 'en');
  if (traits.gender) pool = pool.filter((c) => c.gender === traits.gender);
  if (traits.accent)
    pool = pool.filter((c) => c.premade.labels.accent.toLowerCase().includes(traits.accent ?? ''));
  return pool;
}

/**
 * Whether a description is designed on Kokoro: Kokoro has voices of its language (and of its accent and
 * gender when named). Otherwise today's classic design (a premade base moved in pitch and formants).
 */
export function designsOnKokoro(traits: VoiceTraits): boolean {
  return designPool(traits).length > 0;
}

/** Tone words of a description that match a Kokoro voice's descriptive label or use case. */
const TONES = ['warm', 'deep', 'bright', 'soft', 'calm', 'clear', 'gentle', 'light', 'confident', 'crisp'];

/**
 * `count` distinct blends for a description (the previews), the same for the same traits, tone words and
 * seed. Each voice of the pool is scored by how well its age, tone and pitch fit (a "deep" voice prefers
 * the pool's lower voices, "high" the higher); each blend draws a main voice and one or two others from
 * the best-scored, with random weights, the main voice keeping at least half.
 */
export function designBlends(
  traits: VoiceTraits,
  words: readonly string[],
  seed: number,
  count = 3,
): DesignedBlend[] {
  const pool = designPool(traits);
  if (pool.length === 0) throw new Error('Kokoro has no voice for this description.');
  const poolHz = median(pool.map((c) => c.measure.medianHz));
  const poolTract = median(pool.map((c) => tract(c.measure)));
  const targetHz = poolHz * traits.pitch;
  const targetTract = poolTract * traits.formant;
  const tones = new Set(words.filter((w) => TONES.includes(w)));
  const scored = pool
    .map((c) => {
      const pitchFit = -Math.abs(Math.log2(c.measure.medianHz / targetHz)) / 0.25;
      const ageFit = traits.age && c.premade.labels.age === traits.age ? 1 : 0;
      const toneFit = tones.has(c.premade.labels.descriptive) ? 1 : 0;
      return { candidate: c, score: pitchFit + ageFit + toneFit };
    })
    .sort((a, b) => b.score - a.score || a.candidate.kokoro.localeCompare(b.candidate.kokoro));
  const best = scored.slice(0, Math.max(3, Math.ceil(scored.length / 2)));
  const random = seededRandom(seed);
  const draw = (from: typeof best) => {
    // Better-fitting voices are likelier: weight e^score.
    const weights = from.map((s) => Math.exp(s.score));
    let at = random() * weights.reduce((sum, w) => sum + w, 0);
    for (const [i, w] of weights.entries()) {
      at -= w;
      if (at <= 0) return from[i] as (typeof best)[number];
    }
    return from[from.length - 1] as (typeof best)[number];
  };
  // A pool of one voice (a Spanish woman: ef_dora) varies with a minor share of the same gender's voices
  // of the other languages; the main voice, first, keeps the language and its phonemizer.
  const wider = KOKORO_DESIGN_LANGUAGES.filter((language) => language !== (traits.language ?? 'en'))
    .flatMap((language) => kokoroCandidates(language))
    .filter((c) => c.gender === (traits.gender ?? pool[0]?.gender))
    .map((candidate) => ({
      candidate,
      score: -Math.abs(Math.log2(candidate.measure.medianHz / targetHz)) / 0.25,
    }))
    .sort((a, b) => b.score - a.score || a.candidate.kokoro.localeCompare(b.candidate.kokoro))
    .slice(0, 4);
  const blends: DesignedBlend[] = [];
  for (let attempt = 0; blends.length < count && attempt < count * 20; attempt++) {
    const main = draw(best);
    const alone = best.length === 1;
    const others = alone ? wider : best.filter((s) => s !== main);
    const parts: KokoroBlendPart[] = [
      { voice: main.candidate.kokoro, weight: alone ? 0.7 + 0.2 * random() : 0.5 + 0.4 * random() },
    ];
    const extra = others.length === 0 ? 0 : random() < 0.35 && others.length > 1 ? 2 : 1;
    let left = 1 - (parts[0] as KokoroBlendPart).weight;
    for (let i = 0; i < extra; i++) {
      const other = draw(others.filter((s) => !parts.some((p) => p.voice === s.candidate.kokoro)));
      const weight = i === extra - 1 ? left : left * (0.3 + 0.4 * random());
      left -= weight;
      parts.push({ voice: other.candidate.kokoro, weight });
    }
    if (parts.length === 1) (parts[0] as KokoroBlendPart).weight = 1;
    const blend = formatKokoroBlend(parts);
    // Three previews are three different voices.
    if (blends.some((b) => b.blend === blend) && others.length > 0) continue;
    blends.push({ blend, base: main.candidate.premade, targetHz, targetTract });
  }
  return blends;
}

/**
 * A designed blend's final shift: from what the blend measured to what the description asks, a small
 * one (±10 %), and none for a description that asks nothing of pitch or size (the blend as it sounds).
 */
export function designShift(
  traits: Pick<VoiceTraits, 'pitch' | 'formant'>,
  designed: Pick<DesignedBlend, 'targetHz' | 'targetTract'>,
  measured: { medianHz: number | null; formantsHz: [number, number, number] | null },
): { pitch: number; formant: number } {
  const pitch =
    traits.pitch === 1 || !measured.medianHz ? 1 : clamp(designed.targetHz / measured.medianHz, 0.9, 1.1);
  const formant =
    traits.formant === 1 || !measured.formantsHz
      ? 1
      : clamp(designed.targetTract / Math.sqrt(measured.formantsHz[1] * measured.formantsHz[2]), 0.93, 1.07);
  return { pitch, formant };
}

/** The Kokoro blend an instant clone speaks with, and the premade voice of its main part. */
export interface ClonedBlend {
  blend: string;
  base: PremadeVoice;
  /** How far the blend's predicted sound is from the sample's (half-octaves of pitch plus tract). */
  distance: number;
}

/** Weights tried for the second voice of a clone's blend (0: the nearest voice alone). */
const CLONE_SHARES = [0, 0.1, 0.2, 0.3, 0.4, 0.5];

/**
 * The blend of two of the language's Kokoro voices of the clone's gender whose sound is nearest the
 * samples' measured median pitch and formants, or undefined when Kokoro has no voice for the language
 * (the clone stays classic). A blend's pitch and tract are predicted as the weighted geometric mean of
 * its voices' (the style vectors mix linearly; the measures are near-log-linear in them); the timbre
 * transform then moves its real sound the rest of the way.
 */
export function cloneBlend(
  sample: { medianHz: number; formantsHz: [number, number, number] | null },
  language: string,
  gender: 'female' | 'male',
): ClonedBlend | undefined {
  const ofLanguage = kokoroCandidates(language);
  const pool = ofLanguage.filter((c) => c.gender === gender);
  const candidates = pool.length > 0 ? pool : ofLanguage;
  if (candidates.length === 0) return undefined;
  const sampleTract = sample.formantsHz ? Math.sqrt(sample.formantsHz[1] * sample.formantsHz[2]) : null;
  const distance = (logHz: number, logTract: number) =>
    Math.abs(logHz - Math.log2(sample.medianHz)) / 0.5 +
    (sampleTract ? Math.abs(logTract - Math.log2(sampleTract)) / 0.25 : 0);
  let found: ClonedBlend | undefined;
  for (const a of candidates) {
    for (const b of candidates) {
      for (const share of CLONE_SHARES) {
        if ((share === 0) !== (a === b)) continue;
        const logHz = (1 - share) * Math.log2(a.measure.medianHz) + share * Math.log2(b.measure.medianHz);
        const logTract = (1 - share) * Math.log2(tract(a.measure)) + share * Math.log2(tract(b.measure));
        const d = distance(logHz, logTract);
        if (!found || d < found.distance - 1e-9) {
          const parts =
            share === 0
              ? [{ voice: a.kokoro, weight: 1 }]
              : [
                  { voice: a.kokoro, weight: 1 - share },
                  { voice: b.kokoro, weight: share },
                ];
          found = { blend: formatKokoroBlend(parts), base: a.premade, distance: d };
        }
      }
    }
  }
  return found;
}
