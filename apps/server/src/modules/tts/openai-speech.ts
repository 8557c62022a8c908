import {
  findModel,
  OPENAI_MODELS,
  OPENAI_VOICES,
  type OpenAiSpeechBody,
  type OutputFormat,
  PREMADE_VOICES,
} from '@parla/contracts';
import { invalid } from '../../platform/errors';
import { transcodeWav } from '../../platform/media/encode-audio';
import { type TtsCaller, type TtsDeps, textToSpeech } from './tts.service';

const FORMATS: Record<OpenAiSpeechBody['response_format'], { format: OutputFormat; contentType: string }> = {
  mp3: { format: 'mp3_44100_128', contentType: 'audio/mpeg' },
  opus: { format: 'opus_48000_64', contentType: 'audio/ogg' },
  wav: { format: 'wav_24000', contentType: 'audio/wav' },
  // OpenAI's pcm is 24 kHz signed 16-bit little-endian.
  pcm: { format: 'pcm_24000', contentType: 'audio/pcm' },
  aac: { format: 'wav_24000', contentType: 'audio/aac' },
  flac: { format: 'wav_24000', contentType: 'audio/flac' },
};

/** An id as this server makes them (own voices): 20 letters and digits. */
const OWN_VOICE_ID = /^[0-9A-Za-z]{20}$/;

/** OpenAI's voice names, a premade voice's id or name, or an own voice's id (checked when it speaks). */
export function resolveOpenAiVoice(voice: string): string {
  const wanted = (OPENAI_VOICES[voice.toLowerCase()] ?? voice).toLowerCase();
  const found = PREMADE_VOICES.find((v) => v.voice_id === voice || v.name.toLowerCase() === wanted);
  if (!found && OWN_VOICE_ID.test(voice)) return voice;
  if (!found) {
    throw invalid(
      'voice',
      `Unknown voice "${voice}". Use one of ${Object.keys(OPENAI_VOICES).join(', ')}, or a voice id.`,
    );
  }
  return found.voice_id;
}

export function resolveOpenAiModel(model: string): string {
  const id = OPENAI_MODELS[model] ?? model;
  if (!findModel(id))
    throw invalid(
      'model',
      `Unknown model "${model}". Use tts-1, tts-1-hd, gpt-4o-mini-tts or a Parla model id.`,
    );
  return id;
}

/**
 * `POST /v1/audio/speech` for OpenAI-style clients: the same generation as text to speech (credits,
 * history, limits), with OpenAI's voices, models and formats. `instructions` is accepted; the offline
 * engines have no way to follow free-text directions, so it does not change the speech.
 */
export async function openAiSpeech(
  deps: TtsDeps,
  caller: TtsCaller,
  body: OpenAiSpeechBody,
): Promise<{ audio: Buffer; contentType: string; historyItemId: string | undefined; characterCost: number }> {
  const target = FORMATS[body.response_format];
  const result = await textToSpeech(deps, caller, {
    voiceId: resolveOpenAiVoice(body.voice),
    outputFormat: target.format,
    enableLogging: true,
    body: {
      text: body.input,
      model_id: resolveOpenAiModel(body.model),
      apply_text_normalization: 'auto',
    },
    speed: body.speed,
  });
  const audio =
    body.response_format === 'aac' || body.response_format === 'flac'
      ? await transcodeWav(result.audio, body.response_format)
      : result.audio;
  return {
    audio,
    contentType: target.contentType,
    historyItemId: result.historyItemId,
    characterCost: result.characterCost,
  };
}
