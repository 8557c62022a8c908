/**
 * The speech models and premade voices Parla ships (issue 4 "Models and premade voices"). Models decide
 * which engine speaks; voices carry a rendition per engine. The ids clients send by default
 * (`eleven_multilingual_v2`, `eleven_flash_v2_5`…) are accepted as aliases and listed as such.
 */

/**
 * `external`: an OpenAI-compatible speech server, when one is configured (TTS_OPENAI_URL). `kokoro` and
 * `piper` are the neural models run in the engine children (issue 27): a Kokoro voice is the name of its
 * style file (`af_heart`), Piper's is its model (`en_US-joe-medium`).
 */
export type EngineName = 'espeak' | 'flite' | 'festival' | 'kokoro' | 'piper' | 'external';

/**
 * The language a Kokoro voice speaks, from the first letter of its name (Kokoro-82M's VOICES.md): the
 * language id as `SPOKEN_LANGUAGES` has it and the eSpeak-NG voice that phonemizes it (eSpeak's British
 * English is `en`; `en-gb` and `fr-fr` are not voice names there and left it speaking American English).
 * Japanese and Mandarin are approximate: Kokoro learnt them from misaki's own phonemizers, and eSpeak
 * reads kanji as "Chinese letter" and writes Mandarin tones as digits, which Kokoro has no symbol for.
 */
export const KOKORO_LANGUAGES = {
  a: { language_id: 'en', espeak: 'en-us' },
  b: { language_id: 'en', espeak: 'en' },
  e: { language_id: 'es', espeak: 'es' },
  f: { language_id: 'fr', espeak: 'fr' },
  h: { language_id: 'hi', espeak: 'hi' },
  i: { language_id: 'it', espeak: 'it' },
  j: { language_id: 'ja', espeak: 'ja' },
  p: { language_id: 'pt', espeak: 'pt-br' },
  z: { language_id: 'zh', espeak: 'cmn' },
} as const satisfies Record<string, { language_id: string; espeak: string }>;

/** A Kokoro voice's language (`af_heart` → American English), or undefined for a name with no known prefix. */
export function kokoroVoiceLanguage(
  voice: string,
): (typeof KOKORO_LANGUAGES)[keyof typeof KOKORO_LANGUAGES] | undefined {
  const prefix = voice.charAt(0);
  return Object.hasOwn(KOKORO_LANGUAGES, prefix)
    ? KOKORO_LANGUAGES[prefix as keyof typeof KOKORO_LANGUAGES]
    : undefined;
}

export interface ModelLanguage {
  language_id: string;
  name: string;
}

export interface TtsModel {
  model_id: string;
  name: string;
  description: string;
  /**
   * How a voice is spoken: its own engine, or always eSpeak-NG, or its flite rendition; `voice_conversion`
   * speaks no text (speech to speech: the input's delivery with the target voice's pitch and formants).
   */
  engine: 'voice' | 'espeak' | 'flite' | 'external' | 'voice_conversion' | 'kokoro' | 'piper';
  languages: ModelLanguage[];
  can_do_text_to_speech: boolean;
  can_do_voice_conversion: boolean;
  can_use_style: boolean;
  can_use_speaker_boost: boolean;
  /** Credits per character (accounts §9 "characters charged per model cost factor"). */
  token_cost_factor: number;
  maximum_text_length_per_request: number;
  /** For an alias: the Parla model it stands for. */
  alias_of?: string;
  /** v3-style models read [bracketed] audio tags instead of speaking them. */
  reads_audio_tags: boolean;
  /**
   * A public id that speaks through a neural model where it can (decision record 0021): the classic
   * model that speaks instead when the neural one cannot — a language it does not speak, a voice with no
   * neural rendition, or the neural model unavailable on this server (the model store).
   */
  fallback?: string;
}

const lang = (language_id: string, name: string): ModelLanguage => ({ language_id, name });

/**
 * A language the embedded engine really speaks, with the eSpeak-NG voice that speaks it. Each was checked
 * in this build (`engines.test.ts`): an ordinary sentence in its own script becomes that language's
 * phonemes, with no switch to English. Japanese is spoken from kana only: eSpeak reads kanji as "Chinese
 * letter" in English, and its name says so.
 */
export interface SpokenLanguage extends ModelLanguage {
  /** The eSpeak-NG voice of the language (its variant, e.g. `+f3`, is added per voice). */
  espeak: string;
}

const spoken = (language_id: string, name: string, espeak: string = language_id): SpokenLanguage => ({
  language_id,
  name,
  espeak,
});

/**
 * The languages Parla speaks offline (issue 18 "languages that are true"): what `GET /v1/models` lists for
 * the models that speak through eSpeak-NG, what `language_code` accepts, and what voices may be labelled
 * with. Every voice speaks each of them when a request's `language_code` names it (its language
 * rendition: the language's eSpeak voice with the voice's own variant, rate and pitch).
 */
export const SPOKEN_LANGUAGES: SpokenLanguage[] = [
  spoken('en', 'English', 'en-us'),
  spoken('es', 'Spanish'),
  spoken('fr', 'French'),
  spoken('de', 'German'),
  spoken('it', 'Italian'),
  spoken('pt', 'Portuguese', 'pt-br'),
  spoken('pl', 'Polish'),
  spoken('nl', 'Dutch'),
  spoken('sv', 'Swedish'),
  spoken('da', 'Danish'),
  spoken('fi', 'Finnish'),
  spoken('no', 'Norwegian', 'nb'),
  spoken('cs', 'Czech'),
  spoken('sk', 'Slovak'),
  spoken('hu', 'Hungarian'),
  spoken('ro', 'Romanian'),
  spoken('bg', 'Bulgarian'),
  spoken('hr', 'Croatian'),
  spoken('el', 'Greek'),
  spoken('tr', 'Turkish'),
  spoken('ru', 'Russian'),
  spoken('uk', 'Ukrainian'),
  spoken('hi', 'Hindi'),
  spoken('ta', 'Tamil'),
  spoken('id', 'Indonesian'),
  spoken('ms', 'Malay'),
  spoken('vi', 'Vietnamese'),
  spoken('zh', 'Chinese (Mandarin)', 'cmn'),
  spoken('ja', 'Japanese (kana only)'),
  spoken('ar', 'Arabic'),
];

/** @deprecated The same list as SPOKEN_LANGUAGES (its older name, kept for callers not yet moved). */
export const ESPEAK_LANGUAGES: ModelLanguage[] = SPOKEN_LANGUAGES;

/**
 * The spoken language a code names, or undefined: ISO 639-1 in any case, with or without a region
 * (`de`, `DE`, `de-AT`, `pt_BR`); `nb`/`nn` are Norwegian and `cmn` is Chinese.
 */
export function findSpokenLanguage(code: string | null | undefined): SpokenLanguage | undefined {
  if (!code) return undefined;
  const primary = code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const id = primary === 'nb' || primary === 'nn' ? 'no' : primary === 'cmn' ? 'zh' : primary;
  return SPOKEN_LANGUAGES.find((l) => l.language_id === id);
}

const ENGLISH = [lang('en', 'English')];

/**
 * The languages the neural model (Kokoro) speaks: its voices' languages (KOKORO_LANGUAGES), in the
 * order SPOKEN_LANGUAGES lists them. Japanese and Mandarin are approximate (see KOKORO_LANGUAGES).
 */
export const NEURAL_LANGUAGES: SpokenLanguage[] = SPOKEN_LANGUAGES.filter((l) =>
  Object.values(KOKORO_LANGUAGES).some((k) => k.language_id === l.language_id),
);

/**
 * Which neural models this server can run (the model store's state): a model that is unavailable is
 * not listed, and the public ids that stand for it speak through their classic fallback instead.
 */
export interface NeuralAvailability {
  kokoro: boolean;
  piper: boolean;
}

export const ALL_NEURAL_AVAILABLE: NeuralAvailability = { kokoro: true, piper: true };

/**
 * Every text-to-speech model honours style and speaker boost on every engine (issue 18 item 3): style
 * widens the intonation (the engine's own setting, or the pipeline's pitch pass) and the energy's swings,
 * speaker boost adds presence and loudness after the engine.
 */
const base = {
  can_do_text_to_speech: true,
  can_do_voice_conversion: false,
  can_use_style: true,
  can_use_speaker_boost: true,
  token_cost_factor: 1,
  reads_audio_tags: false,
} as const;

/**
 * Parla's own models: what the app offers, by these names. A description says in plain words what the
 * model is good for, the languages and how it sounds (issue 26 item 7); the engines behind each are
 * described in docs/, not here: people choose by what a model does.
 */
const PARLA_MODELS: TtsModel[] = [
  {
    ...base,
    model_id: 'parla_neural_v1',
    name: 'Parla Neural v1',
    description:
      'Natural, human-sounding speech: the right choice for most texts. English (American and British), Spanish, French, Italian, Brazilian Portuguese and Hindi; Japanese (from kana) and Mandarin sound less sure. Voices of other languages use Parla v1.',
    engine: 'kokoro',
    languages: NEURAL_LANGUAGES,
    maximum_text_length_per_request: 10_000,
  },
  {
    ...base,
    model_id: 'parla_neural_fast_v1',
    name: 'Parla Neural Fast v1',
    description:
      'A natural American man’s voice that starts speaking almost at once, at half the credits: for quick replies and long English texts. English only; the American men’s voices use it.',
    engine: 'piper',
    languages: ENGLISH,
    maximum_text_length_per_request: 10_000,
    token_cost_factor: 0.5,
  },
  {
    ...base,
    model_id: 'parla_v1',
    name: 'Parla v1',
    description: `The classic voices, as Parla spoke before its natural-sounding model: clear but plainly synthetic, in ${SPOKEN_LANGUAGES.length} languages. Voices made with it keep sounding the same.`,
    engine: 'voice',
    languages: SPOKEN_LANGUAGES,
    maximum_text_length_per_request: 10_000,
  },
  {
    ...base,
    model_id: 'parla_tags_v1',
    name: 'Parla v1 with audio tags',
    description:
      'Parla v1 that follows audio tags: write [whispers], [shouts] or [pause] in the text and the line is delivered that way instead of the tag being read out. Made for dialogue; up to 3,000 characters a request.',
    engine: 'voice',
    languages: SPOKEN_LANGUAGES,
    reads_audio_tags: true,
    maximum_text_length_per_request: 3000,
  },
  {
    ...base,
    model_id: 'parla_multilingual_v1',
    name: 'Parla Multilingual v1',
    description: `The fastest model, at half the credits: every voice in ${SPOKEN_LANGUAGES.length} languages, with the exact timing of each word (for captions). It sounds robotic, like a screen reader.`,
    engine: 'espeak',
    languages: SPOKEN_LANGUAGES,
    maximum_text_length_per_request: 10_000,
    token_cost_factor: 0.5,
  },
  {
    ...base,
    model_id: 'parla_english_v1',
    name: 'Parla English v1',
    description:
      'English only, fast and clear, at half the credits: good for short announcements and prompts. Voices of other languages cannot use it.',
    engine: 'flite',
    languages: ENGLISH,
    maximum_text_length_per_request: 10_000,
    token_cost_factor: 0.5,
  },
  {
    ...base,
    model_id: 'parla_external_v1',
    name: 'External (OpenAI-compatible)',
    description:
      'A speech server connected by whoever runs this installation (any server that speaks the OpenAI speech API). It speaks with its own voices, in the languages it knows; only English is listed because that API names none.',
    engine: 'external',
    // The OpenAI speech API carries no language: what such a server speaks is not known here.
    languages: ENGLISH,
    maximum_text_length_per_request: 4096,
  },
  {
    ...base,
    model_id: 'parla_sts_v1',
    name: 'Parla Voice Changer v1',
    description:
      'Says your recording again in the chosen voice: keeps your words, timing and intonation and changes the pitch and tone to the voice’s. Works on speech in any language; your accent stays.',
    engine: 'voice_conversion',
    // Signal processing, not a language model: any language's speech converts the same way.
    languages: SPOKEN_LANGUAGES,
    can_do_text_to_speech: false,
    can_do_voice_conversion: true,
    can_use_style: false,
    can_use_speaker_boost: false,
    maximum_text_length_per_request: 0,
  },
];

/** The model that exists only when an external speech server is configured. */
export const EXTERNAL_MODEL_ID = 'parla_external_v1';

/**
 * The public API's model ids (what clients written for it send, `eleven_multilingual_v2` by default): each
 * is accepted as an alias of the Parla model that behaves the same, listed by `GET /v1/models` with
 * `alias_of`. An alias carries no name of its own: it is named after its Parla model and its id ("Parla v1
 * (alias eleven_multilingual_v2)"), so neither the app nor an API client shows Parla's models as another
 * vendor's. Clients key on `model_id`; the official SDK reads `name` as free text (issue 26 item 7).
 */
const ALIASES: [alias: string, of: string, extra?: Partial<TtsModel>][] = [
  // The public ids clients send by default speak neural (issue 27 item 2, decision record 0021): Parla
  // Neural v1 where it speaks the language with that voice, else the classic model they stood for before
  // (a German text, a voice with no neural rendition, or Kokoro unavailable on this server). They list
  // every language of that fallback, so a client's `language_code` keeps working.
  ['eleven_multilingual_v2', 'parla_neural_v1', { languages: SPOKEN_LANGUAGES, fallback: 'parla_v1' }],
  [
    'eleven_v3',
    'parla_neural_v1',
    {
      languages: SPOKEN_LANGUAGES,
      fallback: 'parla_tags_v1',
      reads_audio_tags: true,
      maximum_text_length_per_request: 3000,
    },
  ],
  // Flash and Turbo keep the public API's half price (what their clients budget for).
  [
    'eleven_flash_v2_5',
    'parla_neural_v1',
    { languages: SPOKEN_LANGUAGES, fallback: 'parla_multilingual_v1', token_cost_factor: 0.5 },
  ],
  [
    'eleven_turbo_v2_5',
    'parla_neural_v1',
    { languages: SPOKEN_LANGUAGES, fallback: 'parla_multilingual_v1', token_cost_factor: 0.5 },
  ],
  ['eleven_flash_v2', 'parla_english_v1'],
  ['eleven_turbo_v2', 'parla_english_v1'],
  ['eleven_multilingual_v1', 'parla_v1'],
  ['eleven_monolingual_v1', 'parla_neural_v1', { languages: ENGLISH, fallback: 'parla_english_v1' }],
  ['eleven_multilingual_sts_v2', 'parla_sts_v1'],
  // The same voice changer; the public API lists English only for this id.
  ['eleven_english_sts_v2', 'parla_sts_v1', { languages: ENGLISH }],
];

export const TTS_MODELS: TtsModel[] = [
  ...PARLA_MODELS,
  ...ALIASES.map(([model_id, target, extra]) => {
    const of = PARLA_MODELS.find((m) => m.model_id === target) as TtsModel;
    const fallback = extra?.fallback ? PARLA_MODELS.find((m) => m.model_id === extra.fallback) : undefined;
    return {
      ...of,
      ...extra,
      model_id,
      name: `${of.name} (alias ${model_id})`,
      description: fallback
        ? `Alias of ${of.name} (${of.model_id}): ${of.description} Where it cannot speak a text, ${fallback.name} (${fallback.model_id}) does.`
        : `Alias of ${of.name} (${of.model_id}): ${of.description}`,
      alias_of: of.model_id,
    };
  }),
];

/** accounts/history §9: the default text-to-speech model. */
export const DEFAULT_TTS_MODEL_ID = 'eleven_multilingual_v2';

/** The public API's default model of speech to speech (`POST /v1/speech-to-speech/{voice_id}`). */
export const DEFAULT_STS_MODEL_ID = 'eleven_multilingual_sts_v2';

export function findModel(modelId: string): TtsModel | undefined {
  return TTS_MODELS.find((m) => m.model_id === modelId);
}

/** A rendition of a voice in one engine, with the voice's own rate and pitch. */
export interface EngineVoice {
  engine: EngineName;
  voice: string;
  rate?: number;
  pitch?: number;
  /**
   * The language a neural voice reads the text in when it is not the voice's own (`language_code`): Kokoro
   * phonemizes with that language's eSpeak-NG voice. The classic engines' language is their voice.
   */
  language?: string;
}

export interface PremadeVoice {
  voice_id: string;
  name: string;
  description: string;
  labels: {
    gender: 'female' | 'male';
    age: 'young' | 'middle_aged' | 'old';
    accent: string;
    use_case: string;
    language: string;
    descriptive: string;
  };
  /** The language the voice speaks (ISO 639-1). */
  language: string;
  /** Its own engine (model `parla_v1`). */
  primary: EngineVoice;
  /** The eSpeak-NG rendition (model `parla_multilingual_v1`, and any language). */
  espeak: EngineVoice;
  /** The flite rendition for English (model `parla_english_v1`). */
  flite: EngineVoice;
  /**
   * The neural rendition (model `parla_neural_v1`): a Kokoro voice. Absent for a voice whose language or
   * accent Kokoro has no voice for (German, Polish, Dutch, Scottish…): such a voice keeps its classic one.
   */
  kokoro?: EngineVoice;
  /** The fast neural rendition (model `parla_neural_fast_v1`, Piper's one voice): American men's voices. */
  piper?: EngineVoice;
}

type Labels = PremadeVoice['labels'];
const voice = (
  voice_id: string,
  name: string,
  description: string,
  labels: Labels,
  primary: EngineVoice,
  espeak: EngineVoice,
  flite?: EngineVoice,
): PremadeVoice => ({
  voice_id,
  name,
  description,
  labels,
  language: labels.language,
  primary,
  espeak,
  flite:
    flite ??
    (labels.gender === 'female' ? { engine: 'flite', voice: 'slt' } : { engine: 'flite', voice: 'rms' }),
});

const fest = (rate?: number): EngineVoice => ({
  engine: 'festival',
  voice: 'cmu_us_slt_arctic_hts',
  ...(rate ? { rate } : {}),
});
const flite = (v: string, extra: Partial<EngineVoice> = {}): EngineVoice => ({
  engine: 'flite',
  voice: v,
  ...extra,
});
const es = (v: string, extra: Partial<EngineVoice> = {}): EngineVoice => ({
  engine: 'espeak',
  voice: v,
  ...extra,
});

/**
 * The premade voices Parla had before its neural model: English accents on the best classic English
 * engines, the main languages on eSpeak-NG. Their ids are in clients' code (Sarah's is the public API's
 * best known), so they stay; most are re-based on a Kokoro voice below (REBASED_ON_KOKORO).
 */
const CLASSIC_PREMADE_VOICES: PremadeVoice[] = [
  voice(
    'pMsXgVXv3BLzUgSXRplE',
    'Sarah',
    'Warm, clear American narrator.',
    {
      gender: 'female',
      age: 'young',
      accent: 'american',
      use_case: 'narration',
      language: 'en',
      descriptive: 'warm',
    },
    fest(),
    es('en-us+f3'),
  ),
  voice(
    'ThT5KcBeYPX3keUQqHPh',
    'Grace',
    'Calm, unhurried voice for audiobooks.',
    {
      gender: 'female',
      age: 'middle_aged',
      accent: 'american',
      use_case: 'audiobook',
      language: 'en',
      descriptive: 'calm',
    },
    fest(0.92),
    es('en-us+f2', { rate: 0.92 }),
  ),
  voice(
    'LcfcDJNUP1GQjkzn1xUU',
    'Lily',
    'Bright, friendly American voice.',
    {
      gender: 'female',
      age: 'young',
      accent: 'american',
      use_case: 'conversational',
      language: 'en',
      descriptive: 'bright',
    },
    flite('slt', { pitch: 1.08 }),
    es('en-us+f4'),
    flite('slt', { pitch: 1.08 }),
  ),
  voice(
    'AZnzlk1XvdvUeBnXmlld',
    'Nora',
    'Crisp voice for e-learning.',
    {
      gender: 'female',
      age: 'middle_aged',
      accent: 'american',
      use_case: 'informative',
      language: 'en',
      descriptive: 'crisp',
    },
    flite('slt', { rate: 0.95, pitch: 0.94 }),
    es('en-us+f1'),
    flite('slt', { rate: 0.95, pitch: 0.94 }),
  ),
  voice(
    'TxGEqnHWrfWFTfGW9XjX',
    'Alan',
    'Scottish storyteller with a steady pace.',
    {
      gender: 'male',
      age: 'middle_aged',
      accent: 'scottish',
      use_case: 'narration',
      language: 'en',
      descriptive: 'steady',
    },
    flite('awb'),
    es('en-gb-scotland+m3'),
    flite('awb'),
  ),
  voice(
    'VR6AewLTigWG4xSOukaG',
    'Ryan',
    'Deep American voice for news.',
    {
      gender: 'male',
      age: 'middle_aged',
      accent: 'american',
      use_case: 'news',
      language: 'en',
      descriptive: 'deep',
    },
    flite('rms'),
    es('en-us+m3'),
    flite('rms'),
  ),
  voice(
    'ErXwobaYiN019PkySvjV',
    'Kevin',
    'Plain, fast American voice for announcements.',
    {
      gender: 'male',
      age: 'middle_aged',
      accent: 'american',
      use_case: 'informative',
      language: 'en',
      descriptive: 'plain',
    },
    flite('kal16'),
    es('en-us+m1'),
    flite('kal16'),
  ),
  voice(
    'yoZ06aMxZJJ28mfd3POQ',
    'Sam',
    'Younger American voice, upbeat.',
    {
      gender: 'male',
      age: 'young',
      accent: 'american',
      use_case: 'social_media',
      language: 'en',
      descriptive: 'upbeat',
    },
    flite('awb', { pitch: 1.12, rate: 1.05 }),
    es('en-us+m2'),
    flite('awb', { pitch: 1.12, rate: 1.05 }),
  ),
  voice(
    'GBv7mTt0atIp3Br8iCZE',
    'Oliver',
    'British received pronunciation.',
    {
      gender: 'male',
      age: 'middle_aged',
      accent: 'british',
      use_case: 'narration',
      language: 'en',
      descriptive: 'formal',
    },
    es('en-gb-x-rp+m3'),
    es('en-gb-x-rp+m3'),
  ),
  voice(
    'XB0fDUnXU5powFXDhCwa',
    'Charlotte',
    'British voice with a light touch.',
    {
      gender: 'female',
      age: 'young',
      accent: 'british',
      use_case: 'conversational',
      language: 'en',
      descriptive: 'light',
    },
    // eSpeak names British English `en`; `en-gb` is not a voice there and would fall back to en-us.
    es('en+f3'),
    es('en+f3'),
  ),
  voice(
    'N2lVS1w4EtoT3dr4eOWO',
    'Callum',
    'Caribbean English.',
    {
      gender: 'male',
      age: 'young',
      accent: 'caribbean',
      use_case: 'conversational',
      language: 'en',
      descriptive: 'relaxed',
    },
    es('en-029+m2'),
    es('en-029+m2'),
  ),
  voice(
    'EXAVITQu4vr4xnSDxMaL',
    'Lucía',
    'Castilian Spanish voice.',
    {
      gender: 'female',
      age: 'young',
      accent: 'castilian',
      use_case: 'narration',
      language: 'es',
      descriptive: 'warm',
    },
    es('es+f3'),
    es('es+f3'),
  ),
  voice(
    'IKne3meq5aSn9XLyUdCD',
    'Mateo',
    'Latin American Spanish voice.',
    {
      gender: 'male',
      age: 'middle_aged',
      accent: 'latin american',
      use_case: 'conversational',
      language: 'es',
      descriptive: 'friendly',
    },
    es('es-419+m3'),
    es('es-419+m3'),
  ),
  voice(
    'jBpfuIE2acCO8z3wKNLl',
    'Camille',
    'Parisian French voice.',
    {
      gender: 'female',
      age: 'young',
      accent: 'parisian',
      use_case: 'narration',
      language: 'fr',
      descriptive: 'soft',
    },
    es('fr+f3'),
    es('fr+f3'),
  ),
  voice(
    'onwK4e9ZLuTAKqWW03F9',
    'Hugo',
    'French voice for explainers.',
    {
      gender: 'male',
      age: 'middle_aged',
      accent: 'standard',
      use_case: 'informative',
      language: 'fr',
      descriptive: 'clear',
    },
    es('fr+m3'),
    es('fr+m3'),
  ),
  voice(
    'z9fAnlkpzviPz146aGWa',
    'Anna',
    'German voice, clear and even.',
    {
      gender: 'female',
      age: 'middle_aged',
      accent: 'standard',
      use_case: 'informative',
      language: 'de',
      descriptive: 'even',
    },
    es('de+f3'),
    es('de+f3'),
  ),
  voice(
    'Zlb1dXrM653N07WRdFW3',
    'Lukas',
    'German voice for narration.',
    {
      gender: 'male',
      age: 'young',
      accent: 'standard',
      use_case: 'narration',
      language: 'de',
      descriptive: 'confident',
    },
    es('de+m3'),
    es('de+m3'),
  ),
  voice(
    'SOYHLrjzK2X1ezoPC6cr',
    'Giulia',
    'Italian voice, lively.',
    {
      gender: 'female',
      age: 'young',
      accent: 'standard',
      use_case: 'conversational',
      language: 'it',
      descriptive: 'lively',
    },
    es('it+f3'),
    es('it+f3'),
  ),
  voice(
    'bIHbv24MWmeRgasZH58o',
    'João',
    'Brazilian Portuguese voice.',
    {
      gender: 'male',
      age: 'young',
      accent: 'brazilian',
      use_case: 'conversational',
      language: 'pt',
      descriptive: 'friendly',
    },
    es('pt-br+m3'),
    es('pt-br+m3'),
  ),
  voice(
    'cgSgspJ2msm6clMCkdW9',
    'Priya',
    'Hindi voice.',
    {
      gender: 'female',
      age: 'young',
      accent: 'standard',
      use_case: 'conversational',
      language: 'hi',
      descriptive: 'warm',
    },
    es('hi+f3'),
    es('hi+f3'),
  ),
  voice(
    'nPczCjzI2devNBz1zQrb',
    'Wei',
    'Mandarin Chinese voice.',
    {
      gender: 'male',
      age: 'middle_aged',
      accent: 'mandarin',
      use_case: 'informative',
      language: 'zh',
      descriptive: 'calm',
    },
    es('cmn+m3'),
    es('cmn+m3'),
  ),
  voice(
    'piTKgcLEGmPE4e6mEKli',
    'Yuki',
    'Japanese voice (kana reads best).',
    {
      gender: 'female',
      age: 'young',
      accent: 'standard',
      use_case: 'conversational',
      language: 'ja',
      descriptive: 'soft',
    },
    es('ja+f3'),
    es('ja+f3'),
  ),
  voice(
    'pqHfZKP75CvOlQylNhV4',
    'Zofia',
    'Polish voice.',
    {
      gender: 'female',
      age: 'middle_aged',
      accent: 'standard',
      use_case: 'narration',
      language: 'pl',
      descriptive: 'clear',
    },
    es('pl+f3'),
    es('pl+f3'),
  ),
  voice(
    'TX3LPaxmHKxFdv7VOQHJ',
    'Daan',
    'Dutch voice.',
    {
      gender: 'male',
      age: 'middle_aged',
      accent: 'standard',
      use_case: 'informative',
      language: 'nl',
      descriptive: 'even',
    },
    es('nl+m3'),
    es('nl+m3'),
  ),
];

/**
 * The classic premade voices that speak neural (issue 27 item 2): each on the Kokoro voice nearest its
 * labels (language, accent, gender, age, tone), preferring the better-rated voices of Kokoro's VOICES.md
 * (af_heart, af_bella, bf_emma, ff_siwis). Left classic: the accents and languages Kokoro has no voice
 * for (Alan's Scottish, Callum's Caribbean, German, Polish, Dutch, a French man's), and Wei and Yuki:
 * Kokoro's Mandarin loses the tones (eSpeak writes them as digits Kokoro has no symbol for) and its
 * Japanese reads kana only, so eSpeak-NG's rendition is kept for them.
 */
const REBASED_ON_KOKORO: Record<string, string> = {
  Sarah: 'af_heart',
  Grace: 'af_sarah',
  Lily: 'af_bella',
  Nora: 'af_nova',
  Ryan: 'am_michael',
  Kevin: 'am_fenrir',
  Sam: 'am_puck',
  Oliver: 'bm_george',
  Charlotte: 'bf_emma',
  Lucía: 'ef_dora',
  Mateo: 'em_alex',
  Camille: 'ff_siwis',
  Giulia: 'if_sara',
  João: 'pm_alex',
  Priya: 'hf_alpha',
};

/** Piper's one voice (Joe, an American man): the fast neural rendition of the American men's voices. */
const PIPER_JOE: EngineVoice = { engine: 'piper', voice: 'en_US-joe-medium' };

/** What a Kokoro voice's first letter says of its accent, as the premade voices' labels name accents. */
const KOKORO_ACCENTS: Record<string, string> = {
  a: 'american',
  b: 'british',
  e: 'castilian',
  f: 'parisian',
  h: 'standard',
  i: 'standard',
  j: 'standard',
  p: 'brazilian',
  z: 'mandarin',
};

/**
 * Every other Kokoro voice of the store (kokoro-js 1.2.1's 54, less those above): a premade voice of its
 * own, named after the Kokoro voice (a person's name where Kokoro's is a Greek letter), with an id made
 * once from its name (sha256 of `parla-kokoro-voice:<name>`, 20 letters and digits) so it never changes.
 * [Kokoro name, voice id, name, age, use case, descriptive label, description].
 */
const KOKORO_VOICES: readonly (readonly [string, string, string, Labels['age'], string, string, string])[] = [
  [
    'af_alloy',
    'SQLBAHU37tKhp8yNTcpB',
    'Alloy',
    'young',
    'conversational',
    'even',
    'Even, neutral American voice.',
  ],
  [
    'af_aoede',
    'gQ6LI8UQ3mc5Dzgi1rMB',
    'Aoede',
    'young',
    'narration',
    'soft',
    'Soft American voice for stories.',
  ],
  [
    'af_jessica',
    '6O4CGHmEh0bSUN0S485d',
    'Jessica',
    'young',
    'conversational',
    'bright',
    'Bright, chatty American voice.',
  ],
  [
    'af_kore',
    'EzqpPXd8x8vZuO5iDWCG',
    'Kore',
    'young',
    'informative',
    'clear',
    'Clear American voice for explainers.',
  ],
  [
    'af_nicole',
    'WQirf1kjJYWCYGVkpvGi',
    'Nicole',
    'young',
    'meditation',
    'whispery',
    'Close, breathy American voice, almost a whisper.',
  ],
  [
    'af_river',
    'ylVGLmtyYaLmQf2A8OmG',
    'River',
    'young',
    'conversational',
    'relaxed',
    'Relaxed American voice.',
  ],
  ['af_sky', 'FLBFjTQcmA3SMwitpY1U', 'Sky', 'young', 'social_media', 'light', 'Light, airy American voice.'],
  [
    'am_adam',
    'HIwqotfzzNIexjk5ZKH6',
    'Adam',
    'middle_aged',
    'informative',
    'plain',
    'Plain American man’s voice.',
  ],
  [
    'am_echo',
    'HN3kFp0mK2ldqGToZZ0T',
    'Echo',
    'middle_aged',
    'narration',
    'calm',
    'Calm American man’s voice.',
  ],
  [
    'am_eric',
    'q8b6PsgJPDIzUecGuAlI',
    'Eric',
    'middle_aged',
    'news',
    'confident',
    'Confident American voice for news.',
  ],
  [
    'am_liam',
    'DzW0AXtBf3jY9YHsX1Hp',
    'Liam',
    'young',
    'conversational',
    'friendly',
    'Friendly young American man.',
  ],
  [
    'am_onyx',
    'arPsSgKizk2HjLGhPJKv',
    'Onyx',
    'middle_aged',
    'narration',
    'deep',
    'Deep American voice for narration.',
  ],
  [
    'am_santa',
    'M0Z1WBmxbuo5rPGfcotk',
    'Santa',
    'old',
    'characters',
    'jolly',
    'Jolly old American man, for stories and characters.',
  ],
  ['bf_alice', '5P793cUgM97otW4sRB1n', 'Alice', 'young', 'informative', 'crisp', 'Crisp British voice.'],
  [
    'bf_isabella',
    'tFR4axhbXC8RIahFWOjg',
    'Isabella',
    'young',
    'narration',
    'warm',
    'Warm British voice for stories.',
  ],
  ['bf_lily', 'jUnbzsRbRKTbTkuNijcK', 'Lilian', 'young', 'conversational', 'gentle', 'Gentle British voice.'],
  [
    'bm_daniel',
    '64OuogfIFtq1YQyCUuD9',
    'Daniel',
    'middle_aged',
    'news',
    'measured',
    'Measured British voice for news.',
  ],
  [
    'bm_fable',
    'sQQBKmXsvtFJ1RRsp1Ye',
    'Fable',
    'middle_aged',
    'narration',
    'expressive',
    'Expressive British storyteller.',
  ],
  ['bm_lewis', 'Dq6IvE99bvvoecipEvkV', 'Lewis', 'middle_aged', 'narration', 'deep', 'Deep British voice.'],
  [
    'em_santa',
    'dX1gHZ4l5EwNBMsETikP',
    'Santa (Spanish)',
    'old',
    'characters',
    'jolly',
    'Jolly old Spanish man, for stories and characters.',
  ],
  ['hf_beta', 'iYRQK496dersOSFCMZZF', 'Meera', 'young', 'narration', 'soft', 'Soft Hindi voice.'],
  [
    'hm_omega',
    'WyypG2VcbcIUuq4wX2IK',
    'Arjun',
    'middle_aged',
    'informative',
    'clear',
    'Clear Hindi man’s voice.',
  ],
  [
    'hm_psi',
    'm0yBb5bgAXASzxkqDAGA',
    'Rohan',
    'young',
    'conversational',
    'friendly',
    'Friendly Hindi man’s voice.',
  ],
  [
    'im_nicola',
    'uDX5DmkmS2IAre4Mo0GZ',
    'Nicola',
    'middle_aged',
    'narration',
    'warm',
    'Warm Italian man’s voice.',
  ],
  [
    'jf_alpha',
    'Etr5HXKOayFUzKnzgAFi',
    'Aiko',
    'young',
    'conversational',
    'soft',
    'Japanese voice (reads kana; kanji poorly).',
  ],
  [
    'jf_gongitsune',
    'cea6vnCy0kHih0iMghFZ',
    'Gongitsune',
    'young',
    'narration',
    'gentle',
    'Japanese storyteller (reads kana; kanji poorly).',
  ],
  [
    'jf_nezumi',
    'hSm0MrE8rAyMQ0zdgUoW',
    'Nezumi',
    'young',
    'characters',
    'light',
    'Light Japanese voice (reads kana; kanji poorly).',
  ],
  [
    'jf_tebukuro',
    '4ju1SfHsCFwa65VHWPov',
    'Tebukuro',
    'young',
    'narration',
    'warm',
    'Warm Japanese voice (reads kana; kanji poorly).',
  ],
  [
    'jm_kumo',
    'ITM7hkICfeeQKHZprl98',
    'Kumo',
    'middle_aged',
    'narration',
    'calm',
    'Calm Japanese man’s voice (reads kana; kanji poorly).',
  ],
  [
    'pf_dora',
    'qHBU09oDeIFUbXfLjl91',
    'Dora',
    'young',
    'conversational',
    'warm',
    'Warm Brazilian Portuguese voice.',
  ],
  [
    'pm_santa',
    'FjoFhVHnr2tIGkWccCvK',
    'Santa (Portuguese)',
    'old',
    'characters',
    'jolly',
    'Jolly old Brazilian man, for stories and characters.',
  ],
  [
    'zf_xiaobei',
    'ZZcQz64yHuhojWy1i3Zf',
    'Xiaobei',
    'young',
    'conversational',
    'bright',
    'Mandarin voice; its tones are approximate.',
  ],
  [
    'zf_xiaoni',
    'BOiyGnZSKN9b8Ebwttxc',
    'Xiaoni',
    'young',
    'conversational',
    'soft',
    'Soft Mandarin voice; its tones are approximate.',
  ],
  [
    'zf_xiaoxiao',
    'iIdKdVyIGjXEBhNKjUwc',
    'Xiaoxiao',
    'young',
    'narration',
    'warm',
    'Warm Mandarin voice; its tones are approximate.',
  ],
  [
    'zf_xiaoyi',
    'pwjWHVioXm78I4GqD437',
    'Xiaoyi',
    'young',
    'informative',
    'clear',
    'Clear Mandarin voice; its tones are approximate.',
  ],
  [
    'zm_yunjian',
    'IJtmYRYiMBq3qpsO85FG',
    'Yunjian',
    'middle_aged',
    'narration',
    'deep',
    'Deep Mandarin man’s voice; its tones are approximate.',
  ],
  [
    'zm_yunxi',
    'tXj3Gb97uDX6CPKDklDH',
    'Yunxi',
    'young',
    'conversational',
    'friendly',
    'Friendly Mandarin man’s voice; its tones are approximate.',
  ],
  [
    'zm_yunxia',
    'CfxKvOM4oiWKYR1947jU',
    'Yunxia',
    'young',
    'conversational',
    'light',
    'Young Mandarin man’s voice; its tones are approximate.',
  ],
  [
    'zm_yunyang',
    'ctms3dLaeiVX7y1I1nAg',
    'Yunyang',
    'middle_aged',
    'news',
    'steady',
    'Steady Mandarin voice for news; its tones are approximate.',
  ],
];

/**
 * A Kokoro voice as a premade voice: its neural rendition, and classic ones for the classic models (the
 * English engines for English, its language's eSpeak-NG voice with the voice's gender otherwise).
 */
function kokoroPremade([
  kokoro,
  voiceId,
  name,
  age,
  useCase,
  descriptive,
  description,
]: (typeof KOKORO_VOICES)[number]): PremadeVoice {
  const language = kokoroVoiceLanguage(kokoro)?.language_id ?? 'en';
  const gender = kokoro.charAt(1) === 'f' ? 'female' : 'male';
  const variant = gender === 'female' ? '+f3' : '+m3';
  const espeakName = SPOKEN_LANGUAGES.find((l) => l.language_id === language)?.espeak ?? 'en-us';
  const british = kokoro.startsWith('b');
  const espeak = es(`${british ? 'en' : espeakName}${variant}`);
  const primary = language !== 'en' || british ? espeak : gender === 'female' ? fest() : flite('rms');
  const made = voice(
    voiceId,
    name,
    description,
    {
      gender,
      age,
      accent: KOKORO_ACCENTS[kokoro.charAt(0)] ?? 'standard',
      use_case: useCase,
      language,
      descriptive,
    },
    primary,
    espeak,
  );
  return { ...made, kokoro: { engine: 'kokoro', voice: kokoro } };
}

/**
 * The premade voices (issue 27 item 2): the classic ones, re-based on Kokoro where REBASED_ON_KOKORO
 * says, then every other Kokoro voice. Every American man's voice also speaks through Piper.
 */
export const PREMADE_VOICES: PremadeVoice[] = [
  ...CLASSIC_PREMADE_VOICES.map((v) => {
    const kokoro = REBASED_ON_KOKORO[v.name];
    return kokoro ? { ...v, kokoro: { engine: 'kokoro' as const, voice: kokoro } } : v;
  }),
  ...KOKORO_VOICES.map(kokoroPremade),
].map((v) =>
  v.language === 'en' && v.labels.gender === 'male' && v.labels.accent === 'american' && v.kokoro
    ? { ...v, piper: PIPER_JOE }
    : v,
);

/** The Kokoro voices the premade voices speak with (each of the store's 54 once). */
export const PREMADE_KOKORO_VOICES: string[] = PREMADE_VOICES.flatMap((v) =>
  v.kokoro ? [v.kokoro.voice] : [],
);

export function findPremadeVoice(voiceId: string): PremadeVoice | undefined {
  return PREMADE_VOICES.find((v) => v.voice_id === voiceId);
}

/**
 * The engine rendition a model uses for a voice. `parla_english_v1` speaks English only: a voice of another
 * language has no rendition there (undefined).
 */
export function engineVoiceFor(model: TtsModel, voice: PremadeVoice): EngineVoice | undefined {
  switch (model.engine) {
    case 'voice':
      return voice.primary;
    case 'espeak':
      return voice.espeak;
    case 'flite':
      return voice.language === 'en' ? voice.flite : undefined;
    case 'external':
      // The server speaks with its own voices: the closest by gender.
      return { engine: 'external', voice: voice.labels.gender === 'female' ? 'nova' : 'onyx' };
    case 'voice_conversion':
      return undefined;
    case 'kokoro':
      return voice.kokoro;
    case 'piper':
      return voice.piper;
  }
}

/** The language an embedded rendition speaks (its eSpeak voice's language; the English engines' `en`). */
export function renditionLanguage(rendition: EngineVoice): string | undefined {
  if (rendition.engine === 'festival' || rendition.engine === 'flite' || rendition.engine === 'piper')
    return 'en';
  if (rendition.engine === 'kokoro')
    return rendition.language ?? kokoroVoiceLanguage(rendition.voice)?.language_id;
  if (rendition.engine === 'external') return undefined;
  const name = rendition.voice.split('+')[0] ?? '';
  return (SPOKEN_LANGUAGES.find((l) => l.espeak === name) ?? findSpokenLanguage(name))?.language_id;
}

/** Whether a model speaks a language (the languages `GET /v1/models` lists for it). */
export function modelSpeaks(model: TtsModel, languageId: string): boolean {
  return model.languages.some((l) => l.language_id === languageId);
}

/**
 * A voice's rendition in another language: that language's eSpeak-NG voice with the voice's own variant
 * (`+f3`…), rate and pitch, so the voice keeps its character and the text gets the language's
 * pronunciation.
 */
export function languageRendition(voice: PremadeVoice, language: SpokenLanguage): EngineVoice {
  const variant = voice.espeak.voice.includes('+')
    ? voice.espeak.voice.slice(voice.espeak.voice.indexOf('+'))
    : '';
  return {
    engine: 'espeak',
    voice: `${language.espeak}${variant}`,
    ...(voice.espeak.rate ? { rate: voice.espeak.rate } : {}),
    ...(voice.espeak.pitch ? { pitch: voice.espeak.pitch } : {}),
  };
}

/** Why a model cannot speak a text in a language: the public API's sentence (its 400 on `language_code`). */
export function unsupportedLanguageMessage(modelId: string, languageCode: string): string {
  return `Model '${modelId}' does not support language_code '${languageCode}'.`;
}

/**
 * The rendition that speaks a text in `languageCode` (issue 18 item 4), or undefined when the model
 * cannot speak that language with this voice. With no code, the voice's own language: its model
 * rendition when that speaks the voice's language (today's behaviour for every premade voice), else the
 * voice's language rendition (an own voice labelled with a language no premade voice speaks is built on
 * an English voice). The external server speaks what it speaks: its rendition is kept.
 */
export function speakingRendition(
  model: TtsModel,
  voice: PremadeVoice,
  languageCode?: string | null,
  available: NeuralAvailability = ALL_NEURAL_AVAILABLE,
): EngineVoice | undefined {
  if (model.engine === 'kokoro' || model.engine === 'piper') {
    const neural = neuralRendition(model, voice, languageCode, available);
    if (neural) return neural;
    // A public id that stands for the neural model speaks through its classic model where it cannot.
    const fallback = model.fallback ? findModel(model.fallback) : undefined;
    return fallback ? speakingRendition(fallback, voice, languageCode, available) : undefined;
  }
  const own = engineVoiceFor(model, voice);
  const wanted = languageCode ? findSpokenLanguage(languageCode) : findSpokenLanguage(voice.language);
  if (languageCode && (!wanted || !modelSpeaks(model, wanted.language_id))) return undefined;
  if (!wanted) return own;
  if (own && (own.engine === 'external' || renditionLanguage(own) === wanted.language_id)) return own;
  if (model.engine !== 'voice' && model.engine !== 'espeak') return languageCode ? undefined : own;
  return modelSpeaks(model, wanted.language_id) ? languageRendition(voice, wanted) : own;
}

/**
 * A voice's neural rendition for a text in `languageCode` (default: the voice's language), or undefined
 * when the neural model is unavailable here, has no rendition of the voice, or does not speak the
 * language. A Kokoro voice reads another Kokoro language with that language's phonemes (`language`).
 */
function neuralRendition(
  model: TtsModel,
  voice: PremadeVoice,
  languageCode: string | null | undefined,
  available: NeuralAvailability,
): EngineVoice | undefined {
  const wanted = findSpokenLanguage(languageCode || voice.language);
  if (!wanted || !NEURAL_LANGUAGES.some((l) => l.language_id === wanted.language_id)) return undefined;
  if (model.engine === 'piper')
    return available.piper && voice.piper && wanted.language_id === 'en' ? voice.piper : undefined;
  if (!available.kokoro || !voice.kokoro) return undefined;
  const own = kokoroVoiceLanguage(voice.kokoro.voice)?.language_id;
  return own === wanted.language_id ? voice.kokoro : { ...voice.kokoro, language: wanted.language_id };
}
