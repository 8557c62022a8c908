import type { ModelId } from '../platform/models/model-catalogue';
import { modelStore } from '../platform/models/model-store';

/**
 * For tests that need real model files (Moonshine hearing speech, Kokoro speaking): undefined when every
 * model named is available on this machine, else why not. Skip with it, and put it in the title, so
 * the run and `npm test`'s summary say what was skipped and why (a machine whose fetch could not reach
 * the registry still passes everything that needs no model):
 *
 *     const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');
 *     describe.skipIf(noModel)(skipTitle('transcribes…', noModel), () => { … });
 */
export function modelsUnavailable(...ids: ModelId[]): string | undefined {
  const missing = ids.map((id) => modelStore().status(id)).filter((status) => !status.available);
  if (missing.length === 0) return undefined;
  const reason = missing.map((m) => `${m.id} is unavailable: ${m.reason}`).join('; ');
  console.warn(`skipped, needs a model: ${reason}`);
  return reason;
}

/** The title of a test or suite, with why it is skipped when it is (the summary finds `[skipped: …]`). */
export function skipTitle(title: string, reason: string | undefined): string {
  return reason === undefined ? title : `${title} [skipped: ${reason}]`;
}
