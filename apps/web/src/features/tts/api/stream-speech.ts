import { type OutputFormat, type TextToSpeechBody, textToSpeechStreamRoute } from '@parla/contracts';
import { apiFetch } from '../../../lib/api-client';
import { type StartedGeneration, startedGeneration } from '../../../lib/started-generation';

export interface StreamSpeechInput {
  voiceId: string;
  outputFormat: OutputFormat;
  body: Partial<TextToSpeechBody> & Pick<TextToSpeechBody, 'text'>;
  signal?: AbortSignal;
}

export type StartedSpeech = StartedGeneration;

/**
 * `POST /v1/text-to-speech/{voice_id}/stream`: starts a generation and answers as soon as the first
 * sentence is spoken; checks (voice, text, credits, concurrency) fail here as an HttpError.
 */
export async function streamSpeech({
  voiceId,
  outputFormat,
  body,
  signal,
}: StreamSpeechInput): Promise<StartedSpeech> {
  const response = await apiFetch(textToSpeechStreamRoute, {
    params: { voice_id: voiceId },
    query: { output_format: outputFormat },
    body,
    signal,
  });
  return startedGeneration(response);
}
