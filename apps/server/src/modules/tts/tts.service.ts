import type { Readable } from 'node:stream';
import type { CharacterAlignment } from '@parla/audio';
import {
  describeOutputFormat,
  findSpokenLanguage,
  type HistoryDialogueLine,
  type HistorySource,
  modelSpeaks,
  type OutputFormat,
  type PronunciationRule,
  speakingRendition,
  type TextToSpeechBody,
  type TtsModel,
  unsupportedLanguageMessage,
} from '@parla/contracts';
import { AppError, invalid } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { encodeAudio } from '../../platform/media/encode-audio';
import type { ModelAvailability as StoreAvailability } from '../../platform/models/model-store';
import type { Storage } from '../../platform/storage/storage';
import { EngineFailure } from '../../providers/engines/engine-pool';
import { ExternalTtsFailure, type TtsProvider } from '../../providers/tts/tts-provider';
import {
  assertAffordable,
  type Budget,
  chargeGeneration,
  finishStreamed,
  type MeteredCaller,
  type MeteredWork,
  type MeteringDeps,
  openBudget,
  recordGeneration,
} from '../metering';
import { pronunciationRulesFor } from '../pronunciation-dictionaries';
import { rememberGeneratedAudio, traceGeneratedAudio } from '../provenance';
import {
  DEFAULT_VOICE_SETTINGS,
  getModel,
  getVoice,
  neuralAvailability,
  premadeSpeaking,
  resolveSpeakingVoice,
  type SpeakingVoice,
  timbreFor,
} from '../voices';
import { findMarkup, MarkupError } from './markup';
import {
  joinSentences,
  normalizeFor,
  pronunciationGrowthProblem,
  type SpeechRequest,
  type SpeechSentence,
  StreamAligner,
  speakSentences,
  synthesizeSpeech,
  type WordAligner,
} from './speech-pipeline';
import { StreamedAudio, streamEncodingBoundMs } from './streamed-audio';

export interface TtsDeps extends MeteringDeps {
  /** The engine pool, with the external speech server when one is configured. */
  engines: TtsProvider;
  externalConfigured: boolean;
  /**
   * The model store, for which neural models can speak (none given: taken as all there, a test's fake
   * engines): an unavailable one is refused by its own id, and the public ids speak classic instead.
   */
  models?: StoreAvailability | undefined;
  /**
   * The forced aligner, for the timings of a neural voice (its engine only estimates them): used where
   * timings are asked for or kept (convert, the timestamps stream), not on the audio-only stream, whose
   * first audio it would delay.
   */
  alignWords?: WordAligner | undefined;
  storage: Storage;
}

/** Who asks for speech: the metered caller. */
export type TtsCaller = MeteredCaller;

export interface TtsResult {
  audio: Buffer;
  contentType: string;
  historyItemId: string | undefined;
  characterCost: number;
  alignment: CharacterAlignment;
  normalizedAlignment: CharacterAlignment;
}

/** Everything a generation needs, checked before anything is spent. */
export interface TtsPlan {
  voice: SpeakingVoice;
  model: TtsModel;
  request: SpeechRequest;
  workspaceId: string;
  settings: typeof DEFAULT_VOICE_SETTINGS;
  characterCost: number;
  outputFormat: OutputFormat;
  enableLogging: boolean;
  source: HistorySource;
  text: string;
}

export interface TtsInput {
  voiceId: string;
  outputFormat: OutputFormat;
  enableLogging: boolean;
  /** The history item's source when it is kept (history/voices §3; default `TTS`). */
  source?: HistorySource;
  body: Pick<TextToSpeechBody, 'text' | 'model_id' | 'apply_text_normalization'> & Partial<TextToSpeechBody>;
  /** A speaking rate outside voice settings' 0.7–1.2 (the OpenAI-compatible call allows 0.25–4). */
  speed?: number;
}

/** What one text in one voice needs to be spoken: a TtsPlan without the request's budget and output. */
export type SpeechPlan = Omit<
  TtsPlan,
  'workspaceId' | 'characterCost' | 'outputFormat' | 'enableLogging' | 'source'
>;

/** A 422 `invalid_request` about the body field at `path` (e.g. `['inputs', 2, 'text']`). */
function invalidAt(path: (string | number)[], message: string): AppError {
  return new AppError('invalid_request', message, {
    errors: [{ loc: ['body', ...path], msg: message, type: 'value_error' }],
  });
}

/**
 * The checks of one text in one voice (voice, model, length, audio tags, language), with no side effect
 * and no database: a text-to-speech request, or one line of a dialogue (`textPath` names its field).
 */
export function planSpeech(
  deps: Pick<TtsDeps, 'externalConfigured' | 'models'>,
  input: Pick<TtsInput, 'voiceId' | 'body' | 'speed'> & { voice?: SpeakingVoice },
  textPath: (string | number)[] = ['text'],
): SpeechPlan {
  const voice = input.voice ?? premadeSpeaking(getVoice(input.voiceId));
  const availability = { external: deps.externalConfigured, store: deps.models };
  const model = getModel(input.body.model_id, availability);
  const { text } = input.body;
  if (text.length > model.maximum_text_length_per_request) {
    throw invalidAt(
      textPath,
      `The text is ${text.length} characters long; ${model.model_id} accepts at most ${model.maximum_text_length_per_request}.`,
    );
  }
  // Break and phoneme tags are checked before anything is spent; no markup ever reaches an engine.
  try {
    findMarkup(text);
  } catch (error) {
    if (error instanceof MarkupError) throw invalidAt(textPath, error.message);
    throw error;
  }
  // A v3 text of audio tags alone has nothing to speak: refused like an empty text, before any charge.
  if (model.reads_audio_tags && !normalizeFor({ text, normalize: false, readsAudioTags: true }).text.trim())
    throw invalidAt(textPath, 'The text holds only audio tags: there is nothing to speak.');
  // issue 18: the text is spoken in `language_code` when it names one (the voice's language rendition);
  // the public API answers 400 when the model cannot speak it.
  // A neural model speaks Kokoro's languages; the public ids that stand for it speak the others (and any
  // voice it has no rendition of) through their classic fallback (decision record 0021).
  const languageCode = input.body.language_code;
  const rendition = speakingRendition(model, voice, languageCode, neuralAvailability(availability));
  const wanted = languageCode ? findSpokenLanguage(languageCode) : undefined;
  if (!rendition && languageCode && (!wanted || !modelSpeaks(model, wanted.language_id)))
    throw new AppError('unsupported_language', unsupportedLanguageMessage(model.model_id, languageCode));
  if (!rendition && (model.engine === 'kokoro' || model.engine === 'piper') && !model.alias_of)
    throw invalid(
      'model_id',
      `${model.name} has no ${languageCode ? `${wanted?.name ?? languageCode} ` : ''}rendition of ${voice.name}; Parla v1 (parla_v1) speaks every voice.`,
    );
  if (!rendition && languageCode)
    throw new AppError('unsupported_language', unsupportedLanguageMessage(model.model_id, languageCode));
  if (!rendition) throw invalid('model_id', `${model.name} does not speak the language of ${voice.name}.`);
  // The request's settings over the voice's own over the defaults.
  const settings = {
    ...DEFAULT_VOICE_SETTINGS,
    ...stripNulls(voice.settings ?? {}),
    ...stripNulls(input.body.voice_settings ?? {}),
  };
  const normalize =
    input.body.apply_text_normalization === 'on' ||
    (input.body.apply_text_normalization === 'auto' &&
      (input.body.language_code ?? voice.language).startsWith('en'));
  return {
    voice,
    model,
    settings,
    text,
    request: {
      text,
      voice: rendition,
      normalize,
      // v3 models read [bracketed] audio tags instead of speaking them; the credits stay the text sent.
      readsAudioTags: model.reads_audio_tags,
      seed: input.body.seed ?? undefined,
      settings: {
        speed: input.speed ?? settings.speed,
        stability: settings.stability,
        style: settings.style,
        useSpeakerBoost: settings.use_speaker_boost,
      },
    },
  };
}

/**
 * planSpeech for the caller's workspace: the voice may be one of its own, whose speech then gets the
 * pitch and formant shift towards the voice's profile (measured against the engine rendition once).
 */
export async function prepareSpeech(
  deps: Pick<TtsDeps, 'externalConfigured' | 'models' | 'db' | 'engines'>,
  caller: Pick<TtsCaller, 'workspaceId' | 'userId'>,
  input: Pick<TtsInput, 'voiceId' | 'body' | 'speed'> & {
    /**
     * The rules already resolved (a dialogue resolves its locators once for all its lines); without them,
     * the body's `pronunciation_dictionary_locators`, else the workspace's default list (issue 30).
     */
    pronunciation?: PronunciationRule[];
  },
  textPath: (string | number)[] = ['text'],
): Promise<SpeechPlan> {
  const voice = await resolveSpeakingVoice(deps.db, caller, input.voiceId);
  const plan = planSpeech(deps, { ...input, voice }, textPath);
  // An unknown dictionary is refused here, with the other checks, before anything is charged.
  const pronunciation =
    input.pronunciation ??
    (await pronunciationRulesFor(deps, caller.workspaceId, input.body.pronunciation_dictionary_locators));
  const timbre = await timbreFor(deps.engines, voice, plan.request.voice, plan.settings.similarity_boost);
  const request = {
    ...plan.request,
    ...(pronunciation.length > 0 ? { pronunciation } : {}),
    ...(timbre ? { timbre } : {}),
  };
  const growth = pronunciationGrowthProblem(request);
  if (growth) throw invalidAt(textPath, growth);
  return { ...plan, request };
}

/** The credits of `characters` characters with a model (accounts §9 "per model cost factor"), at least 1. */
export function creditCost(model: TtsModel, characters: number): number {
  return Math.max(1, Math.ceil(characters * model.token_cost_factor));
}

/** The checks of a request (voice, model, length, language, plan's formats), with no side effect. */
export async function planTextToSpeech(deps: TtsDeps, caller: TtsCaller, input: TtsInput): Promise<TtsPlan> {
  const speech = await prepareSpeech(deps, caller, input);
  const characterCost = creditCost(speech.model, speech.text.length);
  await assertAffordable(deps, caller, characterCost, input.outputFormat);
  return {
    ...speech,
    workspaceId: caller.workspaceId,
    outputFormat: input.outputFormat,
    enableLogging: input.enableLogging,
    source: input.source ?? 'TTS',
    characterCost,
  };
}

/** An engine failure becomes the clean 5xx of issue 4 (after its one retry); anything else stays. */
export function toClientError(deps: Pick<TtsDeps, 'logger'>, error: unknown): unknown {
  if (error instanceof ExternalTtsFailure) {
    deps.logger.warn({ err: error }, 'the external speech server failed; credits refunded');
    return new AppError('service_unavailable', `${error.message} Nothing was charged; please try again.`, {
      cause: error,
    });
  }
  if (!(error instanceof EngineFailure)) return error;
  deps.logger.warn({ err: error, reason: error.reason }, 'speech synthesis failed; credits refunded');
  return new AppError(
    'service_unavailable',
    'The speech engine failed on this request, twice. Nothing was charged; please try again.',
    { cause: error },
  );
}

/**
 * Keeps the generated audio and writes the history item that settles its credits, in one transaction
 * (metering). A dialogue's item carries its lines in `dialogue` (history/voices §3).
 */
export function recordHistory(
  deps: TtsDeps,
  caller: TtsCaller,
  plan: TtsPlan,
  budget: Budget,
  speech: {
    sampleRate: number;
    samples: Int16Array;
    alignment: CharacterAlignment;
    normalizedAlignment: CharacterAlignment;
  },
  audio: Buffer,
  id: string = newId(),
  dialogue?: HistoryDialogueLine[],
): Promise<string> {
  return recordGeneration(
    deps,
    budget,
    {
      id,
      workspaceId: plan.workspaceId,
      userId: caller.userId,
      source: plan.source,
      voiceId: plan.voice.voice_id,
      voiceName: plan.voice.name,
      voiceCategory: plan.voice.category,
      modelId: plan.model.model_id,
      text: plan.text,
      settings: plan.settings,
      outputFormat: plan.outputFormat,
      durationMs: Math.round((speech.samples.length / speech.sampleRate) * 1000),
      alignment: { alignment: speech.alignment, normalized_alignment: speech.normalizedAlignment },
      dialogue: dialogue ?? null,
      requestId: caller.requestId,
    },
    audio,
  );
}

/** What a text-to-speech plan costs, for metering. */
export function workOf(
  plan: Pick<TtsPlan, 'characterCost' | 'model' | 'voice'>,
  kind: MeteredWork['kind'] = 'text_to_speech',
): MeteredWork {
  return { kind, credits: plan.characterCost, modelId: plan.model.model_id, voiceId: plan.voice.voice_id };
}

/**
 * One text-to-speech request end to end (issue 4): checks, a concurrency slot, credits reserved, speech
 * in the engine children, encoding, then the history item that settles the credits. Any failure
 * refunds the credits and leaves no history item.
 */
export async function textToSpeech(deps: TtsDeps, caller: TtsCaller, input: TtsInput): Promise<TtsResult> {
  const plan = await planTextToSpeech(deps, caller, input);
  return chargeGeneration(
    deps,
    caller,
    workOf(plan),
    async (budget, signal) => {
      const speech = await synthesizeSpeech(deps.engines, plan.request, {
        tenant: caller.workspaceId,
        signal,
        alignWords: deps.alignWords,
      });
      const audio = await encodeAudio(
        { sampleRate: speech.sampleRate, channels: 1, samples: speech.samples },
        plan.outputFormat,
      );
      const historyItemId = plan.enableLogging
        ? await recordHistory(deps, caller, plan, budget, speech, audio)
        : await budget.settle().then(() => undefined);
      // Recognisable if it is played back to the installation (issue 26 item 7), fingerprinted after.
      rememberGeneratedAudio(deps, { workspaceId: caller.workspaceId, source: 'text_to_speech' }, speech);
      return {
        audio,
        contentType: describeOutputFormat(plan.outputFormat).contentType,
        historyItemId,
        characterCost: plan.characterCost,
        alignment: speech.alignment,
        normalizedAlignment: speech.normalizedAlignment,
      };
    },
    (error) => toClientError(deps, error),
  );
}

/** How long the following sentences wait for the first sentence's audio to leave the encoder. */
const FIRST_OUTPUT_WAIT_MS = 200;

export interface TtsStream {
  /** Audio bytes, or one JSON object per line with `timestamps`. */
  stream: Readable;
  contentType: string;
  historyItemId: string | undefined;
  characterCost: number;
}

/**
 * A streamed generation (`/stream`, `/stream/with-timestamps`): the first sentence is spoken before the
 * answer starts, so a failure up to there is a normal error response; then each sentence goes out as soon
 * as it is spoken, through one encoder (StreamedAudio). A failure after that ends the stream early,
 * refunds the credits and keeps nothing.
 */
export async function streamTextToSpeech(
  deps: TtsDeps,
  caller: TtsCaller,
  input: TtsInput,
  mode: 'audio' | 'timestamps',
): Promise<TtsStream> {
  const plan = await planTextToSpeech(deps, caller, input);
  // ffmpeg starts now and loads while the budget is opened and the first sentence spoken, instead of
  // after them: its start-up would otherwise sit between the first sentence and the first byte.
  const body = new StreamedAudio(plan.outputFormat, mode, streamEncodingBoundMs(plan.text.length));
  const normalized = normalizeFor(plan.request);
  // The first sentence is spoken while the budget is opened (its transaction would otherwise sit before
  // the first byte). Nothing is sent or kept unless the budget opens; if it is refused, what has not
  // started is cancelled. The first sentence runs alone, so it has an engine and a core to itself.
  const cancel = new AbortController();
  const sentences = speakSentences(deps.engines, plan.request, normalized, {
    signal: cancel.signal,
    alignWords: mode === 'timestamps' ? deps.alignWords : undefined,
    firstAlone: true,
    tenant: caller.workspaceId,
  });
  const speaking = sentences.next();
  speaking.catch(() => undefined); // awaited below once the budget is open
  let budget: Budget;
  try {
    budget = await openBudget(deps, caller, workOf(plan));
  } catch (error) {
    cancel.abort();
    body.abandon();
    throw error;
  }
  let first: SpeechSentence | undefined;
  try {
    first = (await speaking).value ?? undefined;
  } catch (error) {
    body.abandon();
    await budget.refund();
    throw toClientError(deps, error);
  }
  const historyItemId = plan.enableLogging ? newId() : undefined;
  finishStreamed(deps, budget, body, cancel, async () => {
    const parts: SpeechSentence[] = [];
    const aligner = new StreamAligner(plan.text, normalized);
    // What was sent is recognisable, a stream cut short included (issue 26 item 7).
    const sent = traceGeneratedAudio(deps, {
      workspaceId: caller.workspaceId,
      source: 'text_to_speech_stream',
    });
    const handle = async (sentence: SpeechSentence) => {
      parts.push(sentence);
      await body.write(sentence.samples, sentence.sampleRate, aligner.next(sentence));
      sent.add(sentence);
    };
    try {
      if (first) await handle(first);
      // The next sentences start once the first audio is out (until then the encoder has a core), or
      // after a moment: a first sentence with little or no sound (only symbols) may give no output yet.
      await body.firstOutput(FIRST_OUTPUT_WAIT_MS);
      for await (const sentence of sentences) await handle(sentence);
    } finally {
      sent.end();
    }
    const streamed = await body.finish();
    if (!historyItemId) return budget.settle();
    const whole = joinSentences(plan.text, normalized, parts);
    const audio = streamed ?? (await encodeAudio({ ...whole, channels: 1 }, plan.outputFormat));
    await recordHistory(deps, caller, plan, budget, whole, audio, historyItemId);
  });
  return {
    stream: body.out,
    contentType: body.contentType,
    historyItemId,
    characterCost: plan.characterCost,
  };
}

function stripNulls<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as {
    [K in keyof T]?: NonNullable<T[K]>;
  };
}
