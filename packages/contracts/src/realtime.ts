import { z } from 'zod';
import { defineRoute } from './routes';

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
