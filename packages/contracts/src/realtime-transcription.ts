import { z } from 'zod';
import { REALTIME_AUDIO_FORMATS } from './realtime';

/*
 * `/v1/speech-to-text/realtime` (issue 20 item 4): the query a session opens with, and the bounds the
 * server keeps. The parameters and their ranges are the SDK's (`wrapper/realtime/scribe.js`); the bounds
 * are Parla's own (docs/decisions/0015-realtime-transcription.md); the session's length and silence
 * bounds are the server's config (REALTIME_MAX_SECONDS, REALTIME_IDLE_SECONDS).
 */

/** The public API's realtime model; accepted as the built-in fast model, like `scribe_v2` in batch. */
export const REALTIME_STT_MODEL_ALIAS = 'scribe_v2_realtime';

export const REALTIME_STT_LIMITS = {
  /** A frame (one JSON message) larger than this is refused with `chunk_size_exceeded`. */
  maxChunkBytes: 1024 * 1024,
  /** Audio received but not yet transcribed past this many seconds: `queue_overflow`. */
  maxBacklogSecs: 60,
  /** Audio not committed past this many seconds is committed by the server (the recogniser's span). */
  maxUtteranceSecs: 25,
  /** A partial transcript is made after at least this much new audio of speech (seconds). */
  partialEverySecs: 0.35,
} as const;

/** `true`/`false` as a query parameter. */
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', 'True', 'False'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v.toLowerCase() === 'true');

/** A number in a range, as a query parameter. */
const number = (min: number, max: number, fallback: number, integer = false) =>
  z.coerce
    .number()
    .refine((n) => Number.isFinite(n) && (!integer || Number.isInteger(n)), {
      message: integer ? 'must be a whole number' : 'must be a number',
    })
    .pipe(z.number().min(min).max(max))
    .default(fallback);

export const RealtimeTranscriptionQuery = z
  .object({
    model_id: z.string().min(1).max(64),
    audio_format: z.enum(REALTIME_AUDIO_FORMATS).default('pcm_16000'),
    language_code: z.string().min(2).max(16).optional(),
    commit_strategy: z.enum(['manual', 'vad']).default('manual'),
    vad_silence_threshold_secs: number(0.3, 3, 1.5),
    vad_threshold: number(0.1, 0.9, 0.4),
    min_speech_duration_ms: number(50, 2000, 100, true),
    min_silence_duration_ms: number(50, 2000, 100, true),
    include_timestamps: flag(false),
    include_language_detection: flag(false),
    enable_logging: flag(true),
    token: z.string().max(200).optional(),
  })
  .strict();
export type RealtimeTranscriptionQuery = z.infer<typeof RealtimeTranscriptionQuery>;

/**
 * Parameters the SDK may send that Parla does not do: refused by name, unless sent with the value that
 * asks for nothing (`no_verbatim=false`, `filter_background_audio=false`).
 */
export const REALTIME_STT_UNSUPPORTED = {
  keyterms: undefined,
  entity_detection: undefined,
  transcript_edit: undefined,
  secondary_languages: undefined,
  no_verbatim: 'false',
  filter_background_audio: 'false',
} as const satisfies Record<string, string | undefined>;
