import { type OutputFormat, type TextToDialogueBody, textToDialogueStreamRoute } from '@parla/contracts';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';
import { type StartedGeneration, startedGeneration } from '../../../lib/started-generation';

export interface StreamDialogueInput {
  outputFormat: OutputFormat;
  body: z.input<typeof TextToDialogueBody>;
  signal?: AbortSignal;
}

export type StartedDialogue = StartedGeneration;

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
  return startedGeneration(response);
}
