import {
  DEFAULT_OUTPUT_FORMAT,
  type HistorySource,
  type OutputFormat,
  TextToSpeechBody,
  type VoiceSettings,
} from '@parla/contracts';
import { invalid } from '../../platform/errors';
import type { TtsProvider } from '../../providers/tts/tts-provider';
import { findMarkup, MarkupError } from './markup';
import {
  type SpeakOptions,
  type SpeechRequest,
  type SpeechResult,
  synthesizeSpeech,
} from './speech-pipeline';
import {
  streamTextToSpeech,
  type TtsCaller,
  type TtsDeps,
  type TtsResult,
  type TtsStream,
  textToSpeech,
} from './tts.service';

/*
 * Text to speech as other modules use it (issue 26 item 1): what agents, dubbing and studio call through
 * the front door. `synthesize` and `synthesizeStream` are a whole metered generation — the plan's checks,
 * a concurrency slot, credits reserved and settled (refunded on failure), the history item — exactly as
 * `POST /v1/text-to-speech` runs it; `renderSpeech` speaks without metering, for work whose credits are
 * accounted elsewhere (voice design's previews).
 */

/** One text in one voice, as a capability asks for it (the public API's names, camelCase). */
export interface SpeechInput {
  text: string;
  voiceId: string;
  /** A model id or its public alias; the default model when absent. */
  modelId?: string | undefined;
  /** Over the voice's own settings (the public API's voice_settings). */
  voiceSettings?: Partial<VoiceSettings> | undefined;
  /** Speak in this language (the voice's rendition for it); refused when the model cannot. */
  languageCode?: string | undefined;
  /** The audio's format (`mp3_44100_128` by default; `pcm_24000` for raw samples to mix). */
  outputFormat?: OutputFormat | undefined;
  seed?: number | undefined;
  normalization?: 'auto' | 'on' | 'off' | undefined;
  /**
   * Keep the result as a history item of the workspace (default true), under `source`: the public API's
   * history source (`TTS`; a capability records its own, see HISTORY_SOURCES).
   */
  keep?: boolean | undefined;
  source?: HistorySource | undefined;
}

/** The request as text to speech checks it: the public API's body, validated with its own schema. */
function toTtsInput(input: SpeechInput) {
  const body = TextToSpeechBody.safeParse({
    text: input.text,
    model_id: input.modelId,
    voice_settings: input.voiceSettings ?? null,
    language_code: input.languageCode ?? null,
    seed: input.seed ?? null,
    apply_text_normalization: input.normalization,
  });
  if (!body.success)
    throw invalid('text', body.error.issues[0]?.message ?? 'The speech request is not valid.');
  return {
    voiceId: input.voiceId,
    outputFormat: input.outputFormat ?? DEFAULT_OUTPUT_FORMAT,
    enableLogging: input.keep ?? true,
    source: input.source ?? 'TTS',
    body: body.data,
  };
}

/**
 * Speaks a text with a voice and its settings into one audio file, metered: the caller's plan is charged
 * the model's credits for the text (accounts §9), a failure refunds them, and with `keep` the result is a
 * history item. Errors are the API's (`quota_exceeded`, `too_many_concurrent_requests`, `voice_not_found`…).
 */
export function synthesize(deps: TtsDeps, caller: TtsCaller, input: SpeechInput): Promise<TtsResult> {
  return textToSpeech(deps, caller, toTtsInput(input));
}

/**
 * The same as a stream of encoded audio: the first sentence is spoken before this answers, the rest as
 * the stream is read; a failure after that ends the stream early and refunds the credits.
 */
export function synthesizeStream(deps: TtsDeps, caller: TtsCaller, input: SpeechInput): Promise<TtsStream> {
  return streamTextToSpeech(deps, caller, toTtsInput(input), 'audio');
}

/**
 * Speaks a text with an engine voice through the speech pipeline (sentences, normalisation, voice
 * settings, an own voice's timbre), with no plan, credits or history: the caller accounts for it.
 */
export function renderSpeech(
  engines: TtsProvider,
  request: SpeechRequest,
  options: SpeakOptions = {},
): Promise<SpeechResult> {
  return synthesizeSpeech(engines, request, options);
}

/** What is wrong with a text's break and phoneme tags (the message a 422 gives), or undefined. */
export function speechTextProblem(text: string): string | undefined {
  try {
    findMarkup(text);
    return undefined;
  } catch (error) {
    if (error instanceof MarkupError) return error.message;
    throw error;
  }
}
