import type { z } from 'zod';

/** What a handler gets besides its payload. */
export interface JobContext {
  jobId: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the worker shuts down or the job's lease was lost to another worker. */
  signal: AbortSignal;
  /** Stores progress 0..1 (clamped; never lower than stored: a job taken over keeps what it showed). */
  progress(value: number): Promise<void>;
}

/**
 * A typed job: name, payload schema, retry options and handler (STYLE.md rule 8). `D` is what the handler
 * works with (a database, storage, providers…): the module's manifest says how it is built from the app's
 * dependencies and the worker hands it over (`bindJob`), so no job reads a variable set by someone else
 * (issue 26 item 2). Enqueueing needs only the name and the payload schema.
 */
export interface JobDefinition<P = unknown, D = unknown> {
  name: string;
  payload: z.ZodType<P>;
  /** Runs in all, including the first; default 3. */
  maxAttempts?: number;
  /** First retry delay; doubles each attempt (capped at one hour); default 1000 ms. */
  backoffBaseMs?: number;
  handler(payload: P, ctx: JobContext, deps: D): Promise<unknown>;
  /**
   * Called once the job has failed for good — its last attempt failed, it threw NonRetryableJobError, or
   * its worker died during its last attempt (the worker's lease ran out) — so the job's owner can leave its
   * own rows in a final state the user sees (a project "converting" forever otherwise). Called after the
   * job's row says `failed`, at most once per job by the worker that failed it; an error it throws is
   * logged. Not called for a payload that no longer fits its schema.
   */
  onExhausted?(payload: P, failure: JobFailure, deps: D): Promise<void>;
}

/** Why a job failed for good (what `onExhausted` is told). */
export interface JobFailure {
  jobId: string;
  /** The job's last error as stored (`last_error`): for the log, not for users. */
  error: string;
}

/** Declares a job with its payload and dependency types preserved. */
export function defineJob<P, D = void>(definition: JobDefinition<P, D>): JobDefinition<P, D> {
  return definition;
}

/** A job as the worker runs it: its dependencies already handed over. */
// biome-ignore lint/suspicious/noExplicitAny: the worker holds jobs of every payload type; each is parsed by its own schema.
export type RunnableJob = JobDefinition<any, void>;

/** The job with `deps` handed to its handler: what the worker runs. */
export function bindJob<P, D>(definition: JobDefinition<P, D>, deps: D): RunnableJob {
  const { onExhausted } = definition;
  return {
    ...definition,
    handler: (payload: P, ctx: JobContext) => definition.handler(payload, ctx, deps),
    onExhausted: onExhausted
      ? (payload: P, failure: JobFailure) => onExhausted(payload, failure, deps)
      : undefined,
  };
}

/** Thrown by a handler when retrying cannot help (bad input, a row that has gone for good). */
export class NonRetryableJobError extends Error {
  override name = 'NonRetryableJobError';
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** Delay before the next run after failed attempt `attempt` (1-based): base · 2^(attempt−1), capped. */
export function retryDelayMs(backoffBaseMs: number, attempt: number): number {
  return Math.min(MAX_BACKOFF_MS, backoffBaseMs * 2 ** Math.max(0, attempt - 1));
}
