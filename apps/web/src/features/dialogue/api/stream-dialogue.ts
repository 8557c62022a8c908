import { type OutputFormat, type TextToDialogueBody, textToDialogueStreamRoute } from '@parla/contracts';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';

export interface StreamDialogueInput {
  outputFormat: OutputFormat;
  body: z.input<typeof TextToDialogueBody>;
  signal?: AbortSignal;
}

export interface StartedDialogue {
  /** The audio, arriving line by line; hand it to the player unread. */
  response: Response;
  /** The history item the generation will be kept as (absent with logging off). */
  historyItemId: string | null;
  /** Credits charged for all the lines (`x-character-count`). */
  characterCost: number | null;
}

/**
 * `POST /v1/text-to-dialogue/stream`: starts a dialogue and answers as soon as its first line is spoken;
 * the checks of every line (voice, text, credits, concurrency) fail here as an HttpError.
 */
export async function streamDialogue({
  outputFormat,
  body,
  signal,
}: StreamDialogueInput): Promise<StartedDialogue> {
  const response = await apiFetch(textToDialogueStreamRoute, {
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
