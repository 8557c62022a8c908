import { z } from 'zod';
import { defineRoute } from './routes';
import { TextToSpeechQuery } from './tts';
import { DEFAULT_STS_MODEL_ID } from './tts-catalog';
import { VoiceSettings } from './voices';

/** The query of both speech-to-speech calls: the public API's (output_format, enable_logging…). */
export const SpeechToSpeechQuery = TextToSpeechQuery;

/** The public API's upload bound for speech to speech; the recording itself is limited to 5 minutes. */
export const STS_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** The longest recording converted, in seconds: a longer one stated as such is refused. */
export const STS_MAX_SECONDS = 300;
/** Parla's rule: 1,000 credits per minute of input audio, charged per started second. */
export const STS_CREDITS_PER_MINUTE = 1000;

/** The credits of a recording of `seconds`: `ceil(ceil(seconds) × 1000 / 60)`, at least 1. */
export function speechToSpeechCost(seconds: number): number {
  return Math.max(1, Math.ceil((Math.ceil(seconds - 1e-9) * STS_CREDITS_PER_MINUTE) / 60));
}

/** A form boolean as the public API's server reads one (true/false, True/False, 1/0, yes/no, on/off). */
export const formBool = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']))
  .transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on');

/**
 * The text fields of the multipart body (the public API's BodySpeechToSpeechV1SpeechToSpeechVoiceIdPost,
 * besides the `audio` file). Multipart sends every field as a string: `voice_settings` is a JSON string.
 */
export const SpeechToSpeechFields = z.object({
  model_id: z.string().max(100).default(DEFAULT_STS_MODEL_ID),
  voice_settings: z
    .string()
    .max(2000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'voice_settings is not a valid JSON string.' });
        return z.NEVER;
      }
    })
    .pipe(VoiceSettings.nullable())
    .optional(),
  seed: z.coerce.number().int().min(0).max(4_294_967_295).optional(),
  remove_background_noise: formBool.default(false),
  /** `pcm_s16le_16`: raw 16-bit little-endian PCM, 16 kHz mono; `other`: any audio or video, by content. */
  file_format: z.enum(['pcm_s16le_16', 'other']).default('other'),
});
export type SpeechToSpeechFields = z.infer<typeof SpeechToSpeechFields>;

const params = z.object({ voice_id: z.string().max(100) });

/**
 * `POST /v1/speech-to-speech/{voice_id}`: multipart/form-data (`audio` file + SpeechToSpeechFields), read
 * by the handler, so the descriptor carries no JSON body. The audio answers in `output_format`.
 */
export const speechToSpeechRoute = defineRoute({
  method: 'POST',
  path: '/v1/speech-to-speech/:voice_id',
  summary: 'A recording in another voice (multipart: audio, model_id, voice_settings…)',
  tags: ['speech-to-speech'],
  params,
  query: SpeechToSpeechQuery,
  response: z.any().meta({ description: 'The audio, in the content type of output_format' }),
});

export const speechToSpeechStreamRoute = defineRoute({
  method: 'POST',
  path: '/v1/speech-to-speech/:voice_id/stream',
  summary: 'A recording in another voice, streamed (multipart: audio, model_id, voice_settings…)',
  tags: ['speech-to-speech'],
  params,
  query: SpeechToSpeechQuery,
  response: z.any().meta({ description: 'Chunked audio, in the content type of output_format' }),
});
