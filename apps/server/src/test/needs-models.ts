import type { TestContext } from 'vitest';
import type { ModelId } from '../platform/models/model-catalogue';
import { modelStore } from '../platform/models/model-store';

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test was skipped: a model it needs is unavailable here (`npm test`'s summary lists it). */
    skippedFor?: string;
  }
}

/**
 * For tests that need real model files (Moonshine hearing speech, Kokoro speaking): undefined when every
 * model named is available on this machine, else why not (printed once). A machine whose fetch could not
 * reach the registry still passes everything that needs no model:
 *
 *     const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');
 *     it('transcribes…', async (context) => {
 *       skipWithout(context, noModel);
 */
export function modelsUnavailable(...ids: ModelId[]): string | undefined {
  const missing = ids.map((id) => modelStore().status(id)).filter((status) => !status.available);
  if (missing.length === 0) return undefined;
  const reason = missing.map((m) => `${m.id} is unavailable: ${m.reason}`).join('; ');
  console.warn(`skipped, needs a model: ${reason}`);
  return reason;
}

/** Skips the running test (from its body or a beforeEach) when a model is unavailable, keeping why. */
export function skipWithout(context: TestContext, reason: string | undefined): void {
  if (reason === undefined) return;
  context.task.meta.skippedFor = reason;
  context.skip(reason);
}
