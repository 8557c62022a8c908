import { inject } from 'vitest';

/**
 * For a journey that needs real models (the server hearing speech): undefined when the server under test
 * has them all, else why not (from its `/health`), printed once. In the journey:
 * `skipWithout({ task, skip }, noModel)` with the test context.
 */
export function modelsUnavailable(...ids: string[]): string | undefined {
  const unavailable = inject('unavailableModels');
  const missing = ids.filter((id) => unavailable[id] !== undefined);
  if (missing.length === 0) return undefined;
  const reason = missing.map((id) => `${id} is unavailable: ${unavailable[id]}`).join('; ');
  console.warn(`skipped, needs a model: ${reason}`);
  return reason;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Why the journey was skipped: a model it needs is unavailable on the server (the summary lists it). */
    skippedFor?: string;
  }
}

/** Skips the running journey when a model is unavailable, keeping why for `npm test`'s summary. */
export function skipWithout(
  context: { task: { meta: { skippedFor?: string } }; skip: (condition: boolean, note?: string) => void },
  reason: string | undefined,
): void {
  if (reason === undefined) return;
  context.task.meta.skippedFor = reason;
  context.skip(true, reason);
}
