import { z } from 'zod';
import { DEFAULT_OUTPUT_FORMAT, OUTPUT_FORMATS } from './audio-formats';
import { PronunciationDictionaryLocators } from './pronunciation-dictionaries';
import { defineRoute } from './routes';
import { DEFAULT_TTS_MODEL_ID } from './tts-catalog';
import { VoiceSettings } from './voices';

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** The query of every text-to-speech call (the public API's). */
export const TextToSpeechQuery = z.object({
  output_format: z.enum(OUTPUT_FORMATS).default(DEFAULT_OUTPUT_FORMAT),
  /** Accepted for compatibility; Parla's engines stream from the first sentence whatever the value. */
  optimize_streaming_latency: z.coerce.number().int().min(0).max(4).optional(),
  /** false: no history item is kept (the audio is still charged). */
  enable_logging: bool.default(true),
});

/** The body of every text-to-speech call (the public API's BodyTextToSpeechFull). */
export const TextToSpeechBody = z.object({
  text: z.string().refine((t) => t.trim().length > 0, 'The text is empty.'),
  model_id: z.string().max(100).default(DEFAULT_TTS_MODEL_ID),
  language_code: z.string().max(16).nullish(),
  voice_settings: VoiceSettings.nullish(),
  /** Up to 3 dictionaries, applied in order; none named: the workspace's default list (issue 30). */
  pronunciation_dictionary_locators: PronunciationDictionaryLocators.nullish(),
  seed: z.number().int().min(0).max(4_294_967_295).nullish(),
  previous_text: z.string().max(10_000).nullish(),
  next_text: z.string().max(10_000).nullish(),
  previous_request_ids: z.array(z.string()).max(3).nullish(),
  next_request_ids: z.array(z.string()).max(3).nullish(),
  use_pvc_as_ivc: z.boolean().nullish(),
  apply_text_normalization: z.enum(['auto', 'on', 'off']).default('auto'),
  apply_language_text_normalization: z.boolean().nullish(),
});
export type TextToSpeechBody = z.infer<typeof TextToSpeechBody>;

export const CharacterAlignment = z
  .object({
    characters: z.array(z.string()),
    character_start_times_seconds: z.array(z.number()),
    character_end_times_seconds: z.array(z.number()),
  })
  .meta({ id: 'CharacterAlignment' });

export const AudioWithTimestampsResponse = z
  .object({
    audio_base64: z.string(),
    alignment: CharacterAlignment.nullable(),
    normalized_alignment: CharacterAlignment.nullable(),
  })
  .meta({ id: 'AudioWithTimestampsResponse' });

const params = z.object({ voice_id: z.string().max(100) });

/** The audio itself; its content type follows `output_format`. */
export const textToSpeechRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-speech/:voice_id',
  summary: 'Speech from text, as one audio file',
  tags: ['text-to-speech'],
  params,
  query: TextToSpeechQuery,
  body: TextToSpeechBody,
  response: z.any().meta({ description: 'The audio, in the content type of output_format' }),
});

export const textToSpeechWithTimestampsRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-speech/:voice_id/with-timestamps',
  summary: 'Speech from text, with the time of every character',
  tags: ['text-to-speech'],
  params,
  query: TextToSpeechQuery,
  body: TextToSpeechBody,
  response: AudioWithTimestampsResponse,
});

/** The audio, sent as each sentence is spoken (chunked). */
export const textToSpeechStreamRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-speech/:voice_id/stream',
  summary: 'Speech from text, streamed from the first sentence',
  tags: ['text-to-speech'],
  params,
  query: TextToSpeechQuery,
  body: TextToSpeechBody,
  response: z.any().meta({ description: 'Chunked audio, in the content type of output_format' }),
});

/** One JSON object per line: a chunk of audio (base64) with the alignment of its characters. */
export const textToSpeechStreamWithTimestampsRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-speech/:voice_id/stream/with-timestamps',
  summary: 'Speech from text, streamed as JSON lines with the time of every character',
  tags: ['text-to-speech'],
  params,
  query: TextToSpeechQuery,
  body: TextToSpeechBody,
  response: z.any().meta({ description: 'Newline-delimited AudioWithTimestampsResponse chunks' }),
});
