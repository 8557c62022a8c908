import { type OutputFormat, type TextToSpeechBody, textToSpeechStreamRoute } from '@parla/contracts';
import { apiFetch } from '../../../lib/api-client';

export interface StreamSpeechInput {
  voiceId: string;
  outputFormat: OutputFormat;
  body: Partial<TextToSpeechBody> & Pick<TextToSpeechBody, 'text'>;
  signal?: AbortSignal;
}

export interface StartedSpeech {
  /** The audio, arriving sentence by sentence; hand it to the player unread. */
  response: Response;
  /** The history item the generation will be kept as (absent with logging off). */
  historyItemId: string | null;
  /** Credits charged (`x-character-count`). */
  characterCost: number | null;
}

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
  const cost = Number(response.headers.get('x-character-count'));
  return {
    response,
    historyItemId: response.headers.get('history-item-id'),
    characterCost: Number.isFinite(cost) && response.headers.has('x-character-count') ? cost : null,
  };
}
