import { z } from 'zod';
import { DEFAULT_OUTPUT_FORMAT, OUTPUT_FORMATS } from './audio-formats';
import { PronunciationDictionaryLocators } from './pronunciation-dictionaries';
import { defineRoute } from './routes';
import { DEFAULT_TTS_MODEL_ID } from './tts-catalog';
import { VoiceSettings } from './voices';

/*
 * Realtime over WebSockets (issue 20): single-use tokens, the text-to-speech input-streaming sockets
 * (`/v1/text-to-speech/{voice_id}/stream-input` and `multi-stream-input`) and realtime transcription
 * (`/v1/speech-to-text/realtime`). Shapes follow `@elevenlabs/elevenlabs-js`: the `tokens` resource,
 * `api/types/{InitializeConnection,SendText,AudioOutput,FinalOutput,…Multi}` and
 * `wrapper/realtime/{scribe,connection}.js`. The TTS socket's server messages are camelCase on the wire
 * (`normalizedAlignment`, `charStartTimesMs`, `isFinal`, `contextId`); everything else is snake_case.
 */

// ---------------------------------------------------------------------------------------------------
// Single-use tokens

/** What a single-use token opens. The SDK also names `batch_scribe`, which Parla does not issue. */
export const SINGLE_USE_TOKEN_TYPES = ['realtime_scribe', 'tts_websocket'] as const;
export type SingleUseTokenType = (typeof SINGLE_USE_TOKEN_TYPES)[number];

/** How long a single-use token may wait to be used (the public API's tokens last 15 minutes). */
export const SINGLE_USE_TOKEN_TTL_MS = 15 * 60_000;

export const createSingleUseTokenRoute = defineRoute({
  method: 'POST',
  path: '/v1/single-use-token/:token_type',
  summary: 'A short-lived token that opens one socket of its type, so a browser needs no API key',
  tags: ['tokens'],
  params: z.object({ token_type: z.string().max(64) }),
  response: z.object({ token: z.string() }),
});

// ---------------------------------------------------------------------------------------------------
// Sockets in general

/** WebSocket close codes the servers use (RFC 6455 §7.4.1). */
export const WS_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  /** The public API's code for every protocol failure (bad message, timeout, authentication). */
  policyViolation: 1008,
  tooBig: 1009,
  internalError: 1011,
  /** The server is busy (the plan's concurrency limit, the engines saturated). */
  tryAgainLater: 1013,
} as const;

// ---------------------------------------------------------------------------------------------------
// Text to speech, input streaming

/** The default `chunk_length_schedule`: characters buffered before the 1st, 2nd, 3rd and later generations. */
export const DEFAULT_CHUNK_LENGTH_SCHEDULE = [120, 160, 250, 290] as const;
/** `inactivity_timeout`: seconds without text before the socket closes (default 20, at most 180). */
export const TTS_INACTIVITY_TIMEOUT = { default: 20, max: 180 } as const;
/** At most this many contexts open at once on one multi-context socket (the public API's limit). */
export const MAX_TTS_CONTEXTS = 5;

const queryBool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** The query of both text-to-speech sockets (the public API's, `stream-input` and `multi-stream-input`). */
export const TtsSocketQuery = z.object({
  model_id: z.string().max(100).default(DEFAULT_TTS_MODEL_ID),
  output_format: z.enum(OUTPUT_FORMATS).default(DEFAULT_OUTPUT_FORMAT),
  language_code: z.string().max(16).optional(),
  /** false: the socket's speech is charged but not kept in the history (see the socket's docs). */
  enable_logging: queryBool.default(true),
  /** Break and phoneme tags are always read, as in the HTTP call; accepted for compatibility. */
  enable_ssml_parsing: queryBool.default(false),
  inactivity_timeout: z.coerce.number().int().min(1).max(TTS_INACTIVITY_TIMEOUT.max).default(20),
  /** Audio and its alignment always travel in the same message; accepted for compatibility. */
  sync_alignment: queryBool.default(false),
  /** Each sentence is spoken as soon as it is complete, without waiting for the schedule's lengths. */
  auto_mode: queryBool.default(false),
  apply_text_normalization: z.enum(['auto', 'on', 'off']).default('auto'),
  seed: z.coerce.number().int().min(0).max(4_294_967_295).optional(),
  /** Credentials a browser may put in the address: a Bearer value, or a `tts_websocket` single-use token. */
  authorization: z.string().max(512).optional(),
  single_use_token: z.string().max(128).optional(),
  token: z.string().max(128).optional(),
});
export type TtsSocketQuery = z.infer<typeof TtsSocketQuery>;

/** `generation_config`: characters buffered before each generation, 50–500 each. */
export const GenerationConfig = z.object({
  chunk_length_schedule: z.array(z.number().int().min(50).max(500)).min(1).max(20).optional(),
});

/**
 * A client message of either text-to-speech socket (snake_case on the wire): the first one may carry
 * settings and credentials; a multi-context socket's name their context.
 */
export const TtsSocketClientMessage = z
  .object({
    text: z.string().max(100_000).optional(),
    try_trigger_generation: z.boolean().optional(),
    flush: z.boolean().optional(),
    voice_settings: VoiceSettings.optional(),
    generation_config: GenerationConfig.optional(),
    /** The SDK's spelling on SendText. */
    generator_config: GenerationConfig.optional(),
    /** The first message's (or a new context's) dictionaries; none named: the workspace's default list. */
    pronunciation_dictionary_locators: PronunciationDictionaryLocators.optional(),
    xi_api_key: z.string().max(256).optional(),
    'xi-api-key': z.string().max(256).optional(),
    authorization: z.string().max(512).optional(),
    single_use_token: z.string().max(128).optional(),
    context_id: z.string().min(1).max(128).optional(),
    close_context: z.boolean().optional(),
    close_socket: z.boolean().optional(),
  })
  .strict();
export type TtsSocketClientMessage = z.infer<typeof TtsSocketClientMessage>;

/** `alignment` / `normalizedAlignment` of an audio message (camelCase on the wire). */
export interface TtsSocketAlignment {
  charStartTimesMs: number[];
  charDurationsMs: number[];
  chars: string[];
}

/** A server message with audio (`AudioOutput`, and `AudioOutputMulti` with `contextId`). */
export interface TtsSocketAudio {
  audio: string;
  isFinal?: null | false;
  normalizedAlignment?: TtsSocketAlignment | null;
  alignment?: TtsSocketAlignment | null;
  contextId?: string;
}

/** The last server message of a generation (`FinalOutput`, and `FinalOutputMulti` with `contextId`). */
export interface TtsSocketFinal {
  isFinal: true;
  contextId?: string;
}

/** A protocol error, sent before the socket closes with `code`. */
export interface TtsSocketError {
  message: string;
  error: string;
  code: number;
}

// ---------------------------------------------------------------------------------------------------
// Realtime speech to text

/** `audio_format`: PCM (16-bit little-endian mono) at a sample rate, or 8 kHz μ-law. */
export const REALTIME_AUDIO_FORMATS = [
  'pcm_8000',
  'pcm_16000',
  'pcm_22050',
  'pcm_24000',
  'pcm_44100',
  'pcm_48000',
  'ulaw_8000',
] as const;
export type RealtimeAudioFormat = (typeof REALTIME_AUDIO_FORMATS)[number];

/** The sample rate of an `audio_format`. */
export function realtimeSampleRate(format: RealtimeAudioFormat): number {
  return Number(format.split('_')[1]);
}

/** The client's message: audio, a commit, or both. */
export interface RealtimeInputAudioChunk {
  message_type: 'input_audio_chunk';
  audio_base_64: string;
  commit?: boolean;
  sample_rate?: number;
  previous_text?: string;
}

/** The error message types the SDK knows (`wrapper/realtime/connection.js`). */
export const REALTIME_ERROR_TYPES = [
  'error',
  'auth_error',
  'quota_exceeded',
  'commit_throttled',
  'transcriber_error',
  'unaccepted_terms',
  'rate_limited',
  'input_error',
  'invalid_request',
  'queue_overflow',
  'resource_exhausted',
  'session_time_limit_exceeded',
  'chunk_size_exceeded',
  'insufficient_audio_activity',
] as const;
export type RealtimeErrorType = (typeof REALTIME_ERROR_TYPES)[number];

export interface RealtimeSessionConfig {
  sample_rate: number;
  audio_format: RealtimeAudioFormat;
  language_code: string | null;
  commit_strategy: 'manual' | 'vad';
  vad_silence_threshold_secs: number;
  vad_threshold: number;
  min_speech_duration_ms: number;
  min_silence_duration_ms: number;
  model_id: string;
  enable_logging: boolean;
  include_timestamps: boolean;
  include_language_detection: boolean;
}

export interface RealtimeWord {
  text: string;
  start: number;
  end: number;
  type: 'word' | 'spacing';
  logprob?: number;
  characters?: string[];
}

export type RealtimeServerMessage =
  | { message_type: 'session_started'; session_id: string; config: RealtimeSessionConfig }
  | { message_type: 'partial_transcript'; text: string }
  | { message_type: 'committed_transcript'; text: string }
  | {
      message_type: 'committed_transcript_with_timestamps';
      text: string;
      language_code: string | null;
      words: RealtimeWord[];
    }
  | { message_type: RealtimeErrorType; error: string };
