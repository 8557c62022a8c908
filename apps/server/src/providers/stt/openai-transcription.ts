import { findSttLanguage } from '@parla/contracts';
import { encodeAudio } from '../../platform/media/encode-audio';
import { STT_SAMPLE_RATE } from './stt-provider';

/** An operator's OpenAI-compatible transcription server (STT_SERVER_URL), e.g. a Whisper server. */
export interface TranscriptionServerOptions {
  url: string;
  apiKey: string | undefined;
  model: string;
  /** ISO 639-1 codes it serves. */
  languages: readonly string[];
  timeoutMs: number;
}

export class TranscriptionServerFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TranscriptionServerFailure';
  }
}

interface VerboseJson {
  text?: string;
  language?: string;
  words?: { word?: string; start?: number; end?: number }[];
}

/**
 * One stretch of speech (16 kHz mono floats) sent to `POST {url}/v1/audio/transcriptions` as WAV with
 * `response_format=verbose_json` and word timestamps; the words' times are made relative to `offset`.
 * The language is the one asked for, or the one the server detected.
 */
export async function transcribeWithServer(
  options: TranscriptionServerOptions,
  samples: Float32Array,
  offset: number,
  language: string | undefined,
  signal?: AbortSignal,
): Promise<{
  text: string;
  language: string | undefined;
  words: { text: string; start: number; end: number }[];
}> {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1)
    pcm[i] = Math.max(-32768, Math.min(32767, Math.round((samples[i] ?? 0) * 32767)));
  const wav = await encodeAudio({ sampleRate: STT_SAMPLE_RATE, channels: 1, samples: pcm }, 'wav_16000');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'speech.wav');
  form.append('model', options.model);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'word');
  form.append('timestamp_granularities[]', 'segment');
  if (language) form.append('language', language);
  let response: Response;
  try {
    response = await fetch(`${options.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      body: form,
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)])
        : AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    throw new TranscriptionServerFailure('The transcription server could not be reached.', { cause: error });
  }
  if (!response.ok)
    throw new TranscriptionServerFailure(`The transcription server answered ${response.status}.`);
  let body: VerboseJson;
  try {
    body = (await response.json()) as VerboseJson;
  } catch (error) {
    throw new TranscriptionServerFailure('The transcription server answered something other than JSON.', {
      cause: error,
    });
  }
  const text = (body.text ?? '').trim();
  const words = (body.words ?? [])
    .filter((w) => typeof w.word === 'string' && w.word.trim() !== '')
    .map((w) => ({
      text: (w.word as string).trim(),
      start: offset + (Number(w.start) || 0),
      end: offset + (Number(w.end) || Number(w.start) || 0),
    }));
  return { text, language: findSttLanguage(body.language)?.code ?? body.language, words };
}
