import { z } from 'zod';
import { OUTPUT_FORMATS } from './audio-formats';
import { defineRoute } from './routes';
import { VoiceResponse } from './voices';

/*
 * Voice design (issue 7 item 4): a description becomes three previews. The offline engines cannot invent
 * a voice, so a description is read into traits — gender, age, accent and language, pitch, pace, timbre —
 * that pick a premade base voice and move its pitch, formants and pace (describeVoice below).
 */

export const VOICE_DESCRIPTION_MIN = 20;
export const VOICE_DESCRIPTION_LIMIT = 1000;
export const DESIGN_TEXT_MIN = 100;
export const DESIGN_TEXT_MAX = 1000;

export interface VoiceTraits {
  gender: 'female' | 'male' | undefined;
  age: 'young' | 'middle_aged' | 'old' | undefined;
  /** ISO 639-1 of the language asked for, or undefined (English). */
  language: string | undefined;
  /** The accent label, as the premade voices name accents (american, british…), when one is named. */
  accent: string | undefined;
  /** Multiples of the base voice's: pitch (median F0), formants (vocal-tract size) and pace. */
  pitch: number;
  formant: number;
  pace: number;
  /** The words that were understood, for the UI ("Understood: deep, male, British"). */
  understood: string[];
}

interface Rule {
  words: RegExp;
  label: string;
  apply: (t: VoiceTraits) => void;
}

const mul = (key: 'pitch' | 'formant' | 'pace', by: number) => (t: VoiceTraits) => {
  t[key] *= by;
};

/** Words and what they do; every match applies once. Order: gender and age first, then the rest. */
const RULES: Rule[] = [
  {
    words: /\b(woman|female|girl|lady|feminine|she|her)\b/,
    label: 'female',
    apply: (t) => {
      t.gender = 'female';
    },
  },
  {
    words: /\b(man|male|guy|boy|gentleman|masculine|he|his)\b/,
    label: 'male',
    apply: (t) => {
      t.gender = 'male';
    },
  },
  {
    words: /\b(child|kid|teen(age)?|teenager|young|younger|youthful)\b/,
    label: 'young',
    apply: (t) => {
      t.age = 'young';
      t.pitch *= 1.08;
      t.formant *= 1.04;
    },
  },
  {
    words: /\b(old|older|elderly|aged|ageing|aging|grandfather|grandmother|grandpa|grandma|senior|retired)\b/,
    label: 'old',
    apply: (t) => {
      t.age = 'old';
      t.pitch *= 0.94;
      t.pace *= 0.92;
    },
  },
  {
    words: /\b(middle[- ]aged|mature|adult)\b/,
    label: 'middle-aged',
    apply: (t) => {
      t.age = 'middle_aged';
    },
  },
  {
    words: /\b(deep|deeper|lower|low[- ]pitched|bass|baritone|low voice|booming)\b/,
    label: 'deep',
    apply: (t) => {
      t.pitch *= 0.85;
      t.formant *= 0.95;
    },
  },
  {
    words: /\b(high[- ]pitched|higher|squeaky|soprano|shrill|high voice)\b/,
    label: 'high',
    apply: mul('pitch', 1.15),
  },
  { words: /\b(fast|quick|rapid|energetic|excited|hurried)\b/, label: 'fast', apply: mul('pace', 1.12) },
  {
    words: /\b(slow|slowly|calm|relaxed|measured|soothing|sleepy)\b/,
    label: 'slow',
    apply: mul('pace', 0.9),
  },
  {
    words: /\b(gravelly|raspy|husky|rough|gruff|large|big|giant)\b/,
    label: 'large',
    apply: mul('formant', 0.93),
  },
  { words: /\b(bright|small|tiny|thin|light|airy|cartoon)\b/, label: 'bright', apply: mul('formant', 1.07) },
  { words: /\b(warm|rich|smooth|velvety|mellow)\b/, label: 'warm', apply: mul('formant', 0.97) },
];

/** Accents and languages by the words that name them: [pattern, language, accent label]. */
const ACCENTS: [RegExp, string, string | undefined][] = [
  [/\b(british|english accent|london|uk)\b/, 'en', 'british'],
  [/\b(american|us accent|new york|southern)\b/, 'en', 'american'],
  [/\b(australian|aussie)\b/, 'en', 'australian'],
  [/\b(irish)\b/, 'en', 'irish'],
  [/\b(scottish)\b/, 'en', 'scottish'],
  [/\b(indian)\b/, 'en', 'indian'],
  [/\b(spanish|castilian|mexican|latin american)\b/, 'es', undefined],
  [/\b(french|parisian)\b/, 'fr', undefined],
  [/\b(german)\b/, 'de', undefined],
  [/\b(italian)\b/, 'it', undefined],
  [/\b(portuguese|brazilian)\b/, 'pt', undefined],
  [/\b(hindi)\b/, 'hi', undefined],
  [/\b(chinese|mandarin)\b/, 'zh', undefined],
  [/\b(japanese)\b/, 'ja', undefined],
  [/\b(polish)\b/, 'pl', undefined],
  [/\b(dutch)\b/, 'nl', undefined],
];

/** Reads a voice description into traits. Pure; unknown words are ignored. */
export function describeVoice(description: string): VoiceTraits {
  const text = description.toLowerCase();
  const traits: VoiceTraits = {
    gender: undefined,
    age: undefined,
    language: undefined,
    accent: undefined,
    pitch: 1,
    formant: 1,
    pace: 1,
    understood: [],
  };
  for (const rule of RULES) {
    // "woman" wins over a "he" later in the text only if it comes first: the first gender word decides.
    if ((rule.label === 'male' && traits.gender) || (rule.label === 'female' && traits.gender)) continue;
    if (rule.words.test(text)) {
      rule.apply(traits);
      traits.understood.push(rule.label);
    }
  }
  for (const [pattern, language, accent] of ACCENTS) {
    const match = text.match(pattern);
    if (match) {
      traits.language = language;
      traits.accent = accent;
      traits.understood.push(match[0]);
      break;
    }
  }
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  traits.pitch = clamp(traits.pitch, 0.7, 1.4);
  traits.formant = clamp(traits.formant, 0.85, 1.15);
  traits.pace = clamp(traits.pace, 0.8, 1.2);
  return traits;
}

const DesignFields = {
  voice_description: z
    .string()
    .trim()
    .min(VOICE_DESCRIPTION_MIN, `Describe the voice in at least ${VOICE_DESCRIPTION_MIN} characters.`)
    .max(VOICE_DESCRIPTION_LIMIT),
  text: z.string().min(DESIGN_TEXT_MIN).max(DESIGN_TEXT_MAX).nullish(),
  auto_generate_text: z.boolean().default(false),
  // 128 kbit/s: every plan may have it (192 kbit/s is from Creator, accounts §9).
  output_format: z.enum(OUTPUT_FORMATS).default('mp3_44100_128'),
  seed: z.number().int().min(0).max(4_294_967_295).nullish(),
  loudness: z.number().min(-1).max(1).nullish(),
  guidance_scale: z.number().min(0).max(100).nullish(),
  stream_previews: z.boolean().nullish(),
};

export const VoiceDesignBody = z.object({
  ...DesignFields,
  model_id: z.string().max(100).nullish(),
  should_enhance: z.boolean().nullish(),
  reference_audio_base64: z.string().nullish(),
  prompt_strength: z.number().nullish(),
  quality: z.number().nullish(),
});
export type VoiceDesignBody = z.infer<typeof VoiceDesignBody>;

export const VoiceRemixBody = z.object({ ...DesignFields, prompt_strength: z.number().nullish() });

/** The official client sends `output_format` in the query; it wins over the body's. */
export const VoiceDesignQuery = z.object({ output_format: z.enum(OUTPUT_FORMATS).optional() });

export const VoiceDesignPreviews = z.object({
  previews: z.array(
    z.object({
      audio_base_64: z.string(),
      generated_voice_id: z.string(),
      media_type: z.string(),
      duration_secs: z.number(),
      language: z.string().nullish(),
    }),
  ),
  text: z.string(),
});

export const designVoiceRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-voice/design',
  summary: 'Three voice previews from a description',
  tags: ['voice-design'],
  body: VoiceDesignBody,
  query: VoiceDesignQuery,
  response: VoiceDesignPreviews,
});

/** The older name of the same call (the SDK's `createPreviews`). */
export const createVoicePreviewsRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-voice/create-previews',
  summary: 'Three voice previews from a description (older path)',
  tags: ['voice-design'],
  body: VoiceDesignBody,
  query: VoiceDesignQuery,
  response: VoiceDesignPreviews,
});

export const remixVoiceRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-voice/:voice_id/remix',
  summary: 'Three previews of an own voice changed as described',
  tags: ['voice-design'],
  params: z.object({ voice_id: z.string().max(100) }),
  body: VoiceRemixBody,
  query: VoiceDesignQuery,
  response: VoiceDesignPreviews,
});

export const createDesignedVoiceRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-voice',
  summary: 'Save a preview as a voice',
  tags: ['voice-design'],
  body: z.object({
    voice_name: z.string().trim().min(1).max(100),
    voice_description: z.string().trim().min(1).max(VOICE_DESCRIPTION_LIMIT),
    generated_voice_id: z.string().max(100),
    labels: z.record(z.string().max(50), z.string().max(100).nullish()).nullish(),
    played_not_selected_voice_ids: z.array(z.string().max(100)).max(10).nullish(),
  }),
  response: VoiceResponse,
});

export const streamVoicePreviewRoute = defineRoute({
  method: 'GET',
  path: '/v1/text-to-voice/:generated_voice_id/stream',
  summary: "A preview's audio",
  tags: ['voice-design'],
  params: z.object({ generated_voice_id: z.string().max(100) }),
  response: z.any().meta({ description: 'audio/mpeg' }),
});
