import { z } from 'zod';
import { defineRoute } from './routes';

/**
 * OpenAI's speech voices, each spoken by a premade voice (issue 4 "OpenAI-compatible POST /v1/audio/speech").
 * A premade voice id or name is accepted too.
 */
export const OPENAI_VOICES: Record<string, string> = {
  // Kokoro has voices named after five of OpenAI's: those speak them (issue 27); the others the nearest.
  alloy: 'Alloy',
  ash: 'Ryan',
  ballad: 'Lewis',
  coral: 'Lily',
  echo: 'Echo',
  fable: 'Fable',
  nova: 'Nora',
  onyx: 'Onyx',
  sage: 'Grace',
  shimmer: 'Lily',
  verse: 'Sam',
};

/** OpenAI's model names, mapped to Parla's. */
export const OPENAI_MODELS: Record<string, string> = {
  // The public default id: neural where it speaks the voice, its classic model otherwise (decision 21).
  'tts-1': 'eleven_multilingual_v2',
  'tts-1-hd': 'eleven_multilingual_v2',
  'gpt-4o-mini-tts': 'eleven_multilingual_v2',
};

export const OPENAI_RESPONSE_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;

export const OpenAiSpeechBody = z.object({
  model: z.string().min(1).max(100),
  input: z
    .string()
    .max(4096)
    .refine((t) => t.trim().length > 0, 'The input is empty.'),
  voice: z.string().min(1).max(100),
  response_format: z.enum(OPENAI_RESPONSE_FORMATS).default('mp3'),
  /** OpenAI allows 0.25–4; the engines speak 0.5–2 (kept within). */
  speed: z.number().min(0.25).max(4).default(1),
  instructions: z.string().max(4096).optional(),
});
export type OpenAiSpeechBody = z.infer<typeof OpenAiSpeechBody>;

export const openAiSpeechRoute = defineRoute({
  method: 'POST',
  path: '/v1/audio/speech',
  summary: 'OpenAI-compatible speech (model, input, voice, response_format, speed)',
  tags: ['text-to-speech'],
  body: OpenAiSpeechBody,
  response: z.any().meta({ description: 'The audio in response_format' }),
});
