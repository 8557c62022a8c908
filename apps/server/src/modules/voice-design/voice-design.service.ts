import { clamp, scaledProfile, type VoiceProfile } from '@parla/audio';
import {
  DESIGN_TEXT_MIN,
  describeOutputFormat,
  describeVoice,
  type EngineVoice,
  OUTPUT_FORMATS,
  type OutputFormat,
  PREMADE_VOICES,
  type PremadeVoice,
  type VoiceResponse,
  type VoiceTraits,
} from '@parla/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/client';
import { AppError, invalid, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { Limiter } from '../../platform/limiter';
import { encodeAudio } from '../../platform/media/encode-audio';
import type { ModelAvailability as StoreAvailability } from '../../platform/models/model-store';
import type { Storage } from '../../platform/storage/storage';
import type { TtsProvider } from '../../providers/tts/tts-provider';
import type { VoiceConversionProvider } from '../../providers/voice-conversion/voice-conversion-provider';
import { assertFormatAllowedFor } from '../metering';
import { rememberGeneratedAudio } from '../provenance';
import { renderSpeech, speechTextProblem, toClientError } from '../tts';
import {
  createGeneratedVoice,
  descriptionSeed,
  designBlends,
  designShift,
  designsOnKokoro,
  neuralAvailability,
  type RemixSource,
  remixSourceOf,
  renditionProfile,
  timbreShift,
  type VoiceCaller,
} from '../voices';
import { deleteGeneratedVoicesBefore, findGeneratedVoice, insertGeneratedVoice } from './voice-design.store';

/*
 * Voice design (issue 7 item 4; on Kokoro, issue 27 item 5). A description is read into traits
 * (describeVoice: gender, age, language and accent, pitch, pace, timbre).
 * - Where Kokoro has voices of the language (and of the accent and gender named), each preview is a blend
 *   of their style vectors chosen by the traits with seeded variation (voices/kokoro-blends.ts): the
 *   request's `seed`, else one derived from the description, so the same description designs the same
 *   three voices. The blend is saved with the voice and speaks it on the neural model; its profile is the
 *   blend's measured sound, moved a little where the description asks for a deeper or higher voice.
 * - Elsewhere (German, Polish, Dutch, Japanese, Mandarin, a Scottish accent…, or Kokoro not installed):
 *   the traits pick a premade base voice and a target profile, the base's own moved in pitch and
 *   formants; three previews are three nearby targets.
 * What a preview sounds like is what the saved voice speaks.
 */

export interface DesignDeps {
  db: Db;
  logger: Logger;
  events: EventBus;
  storage: Storage;
  engines: TtsProvider;
  /** The pitch and formant shift from the base's rendition to the designed voice. */
  voiceConversion: VoiceConversionProvider;
  publicUrl: string;
  /** The model store: a design is made on Kokoro only where its model is installed and whole. */
  models?: StoreAvailability | undefined;
}

/** What each language's previews say when no text is given (at least 100 characters). */
const SAMPLE_TEXT: Record<string, string> = {
  en: 'Every morning I walk down to the harbour, buy a coffee from the little kiosk by the pier, and watch the fishing boats come home with the tide.',
  es: 'Cada mañana bajo al puerto, compro un café en el quiosco junto al muelle y miro cómo vuelven los barcos de pesca con la marea.',
  fr: 'Chaque matin, je descends au port, j’achète un café au petit kiosque près de la jetée et je regarde rentrer les bateaux de pêche avec la marée.',
  de: 'Jeden Morgen gehe ich zum Hafen hinunter, kaufe einen Kaffee am kleinen Kiosk am Pier und sehe den Fischerbooten zu, die mit der Flut heimkehren.',
  it: 'Ogni mattina scendo al porto, compro un caffè al chiosco vicino al molo e guardo le barche da pesca che tornano con la marea.',
  pt: 'Todas as manhãs desço até ao porto, compro um café no quiosque junto ao cais e vejo os barcos de pesca a voltar com a maré.',
  pl: 'Każdego ranka schodzę do portu, kupuję kawę w małym kiosku przy molo i patrzę, jak łodzie rybackie wracają z przypływem.',
  nl: 'Elke ochtend loop ik naar de haven, koop een koffie bij het kleine kiosk bij de pier en kijk hoe de vissersboten met het tij terugkeren.',
};

/** Three previews: the traits' target, then a little lower and a little higher. */
const VARIATIONS = [
  { pitch: 1, formant: 1 },
  { pitch: 0.93, formant: 0.97 },
  { pitch: 1.07, formant: 1.03 },
];

/** Previews are kept this long for `POST /v1/text-to-voice` to save. */
const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

/** The premade voice a description starts from: its language, then gender, accent and age, by score. */
export function chooseDesignBase(traits: VoiceTraits): PremadeVoice {
  const language = traits.language ?? 'en';
  const pool = PREMADE_VOICES.filter((v) => v.language === language);
  const candidates = pool.length > 0 ? pool : PREMADE_VOICES.filter((v) => v.language === 'en');
  const score = (v: PremadeVoice) =>
    (traits.gender && v.labels.gender === traits.gender ? 4 : 0) +
    (traits.accent && v.labels.accent.toLowerCase().includes(traits.accent) ? 2 : 0) +
    (traits.age && v.labels.age === traits.age ? 1 : 0);
  return [...candidates].sort((a, b) => score(b) - score(a))[0] as PremadeVoice;
}

interface DesignInput {
  voice_description: string;
  text?: string | null | undefined;
  auto_generate_text: boolean;
  output_format: OutputFormat;
  /** The API's seed: the same seed and description design the same voices (else one from the description). */
  seed?: number | null | undefined;
}

/** The voice settings of a preview: the rendition as it is (range 1, no speaker boost). */
const PREVIEW_SETTINGS = { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: false };

/**
 * Speaks `text` with `rendition` (a base's classic engine, or a Kokoro blend) moved to `target`, at
 * `pace`; the audio in the format asked. The text goes through the speech pipeline, sentence by sentence
 * within the engines' bound, in the workspace's share of the engines' queue.
 */
async function renderPreview(
  deps: DesignDeps,
  workspaceId: string,
  rendition: EngineVoice,
  target: VoiceProfile,
  pace: number,
  text: string,
  outputFormat: OutputFormat,
) {
  const paced = { ...rendition, rate: clamp((rendition.rate ?? 1) * pace, 0.5, 2) };
  const speech = await renderSpeech(
    deps.engines,
    { text, voice: paced, settings: PREVIEW_SETTINGS, normalize: false },
    { tenant: workspaceId },
  );
  const shift = timbreShift(await renditionProfile(deps.engines, rendition), target);
  const audio = await deps.voiceConversion.convert(
    { sampleRate: speech.sampleRate, channels: 1, samples: speech.samples },
    shift,
  );
  // Recognisable if it is played back to the installation (issue 26 item 7), fingerprinted after.
  rememberGeneratedAudio(deps, { workspaceId, source: 'voice_design' }, audio);
  return {
    bytes: await encodeAudio(audio, outputFormat),
    durationSecs: audio.samples.length / audio.sampleRate,
  };
}

/** One preview to make: what speaks it, what it is moved to, and the Kokoro blend the voice keeps. */
interface PreviewPlan {
  base: PremadeVoice;
  rendition: EngineVoice;
  target: VoiceProfile;
  kokoroVoice: string | null;
}

/**
 * The three previews of a description: blends of Kokoro voices where Kokoro speaks it, else today's
 * classic variations of one premade base; a remix keeps the voice's engine (its blend, or its base).
 */
async function planPreviews(
  deps: DesignDeps,
  input: DesignInput,
  traits: VoiceTraits,
  from: RemixSource | undefined,
): Promise<PreviewPlan[]> {
  if (from) {
    const rendition: EngineVoice = from.kokoroVoice
      ? { engine: 'kokoro', voice: from.kokoroVoice }
      : from.base.primary;
    return VARIATIONS.map((variation) => ({
      base: from.base,
      rendition,
      target: scaledProfile(from.profile, traits.pitch * variation.pitch, traits.formant * variation.formant),
      kokoroVoice: from.kokoroVoice,
    }));
  }
  if (neuralAvailability({ store: deps.models }).kokoro && designsOnKokoro(traits)) {
    const seed = input.seed ?? descriptionSeed(input.voice_description);
    const plans: PreviewPlan[] = [];
    // One at a time: each measures its blend with an engine (kept for the saved voice's speech).
    for (const designed of designBlends(traits, traits.understood, seed)) {
      const rendition: EngineVoice = { engine: 'kokoro', voice: designed.blend };
      const measured = await renditionProfile(deps.engines, rendition);
      const shift = designShift(traits, designed, {
        medianHz: measured.pitch.medianHz,
        formantsHz: measured.spectralEnvelope.formantsHz,
      });
      const target =
        shift.pitch === 1 && shift.formant === 1
          ? measured
          : scaledProfile(measured, shift.pitch, shift.formant);
      plans.push({ base: designed.base, rendition, target, kokoroVoice: designed.blend });
    }
    return plans;
  }
  const base = chooseDesignBase(traits);
  const start = await renditionProfile(deps.engines, base.primary);
  return VARIATIONS.map((variation) => ({
    base,
    rendition: base.primary,
    target: scaledProfile(start, traits.pitch * variation.pitch, traits.formant * variation.formant),
    kokoroVoice: null,
  }));
}

/**
 * Three previews of the voice a description asks for, each kept a day under its generated_voice_id.
 * `from` is the starting point of a remix: an own voice's base and profile.
 */
async function makePreviews(deps: DesignDeps, caller: VoiceCaller, input: DesignInput, from?: RemixSource) {
  await forgetExpiredPreviews(deps, caller.workspaceId);
  const traits = describeVoice(input.voice_description);
  const language = from?.base.language ?? chooseDesignBase(traits).language;
  const text = input.text?.trim() || (SAMPLE_TEXT[language] ?? (SAMPLE_TEXT.en as string));
  if (text.length < DESIGN_TEXT_MIN && !input.auto_generate_text)
    throw new AppError('invalid_request', `The preview text must be at least ${DESIGN_TEXT_MIN} characters.`);
  const problem = speechTextProblem(text);
  if (problem) throw invalid('text', problem);
  const pace = clamp((from?.pace ?? 1) * traits.pace, 0.7, 1.2);
  const previews = [];
  // One at a time: each uses an engine and an ffmpeg, and three at once would starve speech requests.
  for (const plan of await planPreviews(deps, input, traits, from)) {
    const { base, target } = plan;
    const labels: Record<string, string> = {
      gender: traits.gender ?? base.labels.gender,
      age: traits.age ?? base.labels.age,
      accent: traits.accent ?? base.labels.accent,
      language,
      descriptive:
        traits.understood.filter((w) => ['deep', 'high', 'warm', 'bright', 'large'].includes(w))[0] ?? '',
    };
    const { bytes, durationSecs } = await renderPreview(
      deps,
      caller.workspaceId,
      plan.rendition,
      target,
      pace,
      text,
      input.output_format,
    );
    const id = newId();
    const audioKey = `voice-design/${caller.workspaceId}/${id}.${describeOutputFormat(input.output_format).extension}`;
    await deps.storage.put(audioKey, bytes);
    await insertGeneratedVoice(deps.db, {
      id,
      workspaceId: caller.workspaceId,
      description: input.voice_description,
      language,
      baseVoiceId: base.voice_id,
      profile: target,
      kokoroVoice: plan.kokoroVoice,
      labels,
      settings: { speed: Math.round(pace * 100) / 100 },
      audioKey,
    });
    previews.push({
      audio_base_64: bytes.toString('base64'),
      generated_voice_id: id,
      media_type: describeOutputFormat(input.output_format).contentType,
      duration_secs: Math.round(durationSecs * 100) / 100,
      language,
    });
  }
  return { previews, text };
}

/** The workspace's previews older than a day, rows and audio, dropped when it designs again. */
async function forgetExpiredPreviews(deps: DesignDeps, workspaceId: string): Promise<void> {
  const expired = await deleteGeneratedVoicesBefore(
    deps.db,
    workspaceId,
    new Date(Date.now() - PREVIEW_TTL_MS),
  );
  for (const audioKey of expired) await deps.storage.delete(audioKey).catch(() => undefined);
}

/**
 * Designs at once in this process: each speaks three previews and runs three ffmpegs, so more wait their
 * turn rather than take the cores from text to speech.
 */
const designs = new Limiter(2);

/** `POST /v1/text-to-voice/design`. */
export async function designVoice(deps: DesignDeps, caller: VoiceCaller, input: DesignInput) {
  // The plan must allow the output format asked for the previews (as for text to speech).
  await assertFormatAllowedFor(deps, caller.workspaceId, input.output_format);
  return designs
    .run(() => makePreviews(deps, caller, input))
    .catch((error: unknown) => {
      throw toClientError(deps, error);
    });
}

/** `POST /v1/text-to-voice/{voice_id}/remix`: an own voice, changed as described. */
export async function remixVoice(deps: DesignDeps, caller: VoiceCaller, voiceId: string, input: DesignInput) {
  const source = await remixSourceOf(deps.db, caller, voiceId);
  await assertFormatAllowedFor(deps, caller.workspaceId, input.output_format);
  // An engine that failed (crashed twice, past its time bound, all busy) is the 503 of text to speech.
  return designs
    .run(() => makePreviews(deps, caller, input, source))
    .catch((error: unknown) => {
      throw toClientError(deps, error);
    });
}

/** A preview of the caller's workspace that has not expired; 404 otherwise. */
async function findPreview(db: Db, workspaceId: string, id: string) {
  const row = await findGeneratedVoice(db, workspaceId, id, new Date(Date.now() - PREVIEW_TTL_MS));
  if (!row) throw notFound('The voice preview');
  return row;
}

/** `GET /v1/text-to-voice/{generated_voice_id}/stream`: the preview's audio, in the format it was made in. */
export async function previewAudio(
  deps: DesignDeps,
  caller: VoiceCaller,
  id: string,
): Promise<{ audio: Buffer; contentType: string }> {
  const row = await findPreview(deps.db, caller.workspaceId, id);
  const audio = await deps.storage.get(row.audioKey);
  if (!audio) throw notFound('The voice preview');
  const extension = row.audioKey.split('.').pop() ?? 'mp3';
  const format = OUTPUT_FORMATS.find((f) => describeOutputFormat(f).extension === extension);
  return { audio, contentType: format ? describeOutputFormat(format).contentType : 'audio/mpeg' };
}

/** `POST /v1/text-to-voice`: a preview saved as a `generated` voice (counts against voice_limit). */
export async function createDesignedVoice(
  deps: DesignDeps,
  caller: VoiceCaller,
  body: {
    voice_name: string;
    voice_description: string;
    generated_voice_id: string;
    labels?: Record<string, string | null | undefined> | null | undefined;
  },
): Promise<VoiceResponse> {
  const preview = await findPreview(deps.db, caller.workspaceId, body.generated_voice_id);
  const given = Object.fromEntries(
    Object.entries(body.labels ?? {}).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
  );
  return createGeneratedVoice(deps, caller, {
    name: body.voice_name,
    description: body.voice_description,
    labels: { ...preview.labels, ...given },
    language: preview.language,
    baseVoiceId: preview.baseVoiceId,
    profile: preview.profile,
    settings: preview.settings,
    kokoroVoice: preview.kokoroVoice,
  });
}
