import { hostname } from 'node:os';
import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { newId } from '../ids';
import {
  type JobContext,
  type JobFailure,
  NonRetryableJobError,
  type RunnableJob,
  retryDelayMs,
} from './job-definition';
import { type JobRow, jobs } from './jobs.tables';

export interface JobWorkerOptions {
  db: Db;
  /** The jobs this worker runs, each with its dependencies (bindJob; modules.ts workerJobs). */
  definitions: readonly RunnableJob[];
  concurrency: number;
  leaseSeconds: number;
  pollIntervalMs: number;
  logger: Logger;
  /**
   * The database belongs to this process alone (PGlite): any job still marked active was running when
   * the process died, so it is released at start instead of after its lease.
   */
  exclusiveDatabase: boolean;
}

interface Running {
  row: JobRow;
  token: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Claims and runs jobs. Claims use `FOR UPDATE SKIP LOCKED`, so any number of workers may share the
 * queue; each running job holds a lease that a heartbeat renews, and a job whose lease ran out (its
 * worker died) is claimed again. Settling a job needs its lock token, so a worker that lost its lease
 * cannot complete the job a second time.
 */
export class JobWorker {
  readonly workerId = `${hostname()}:${process.pid}:${newId(6)}`;
  private readonly running = new Map<string, Running>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly byName: Map<string, RunnableJob>;

  constructor(private readonly options: JobWorkerOptions) {
    this.byName = new Map(options.definitions.map((d) => [d.name, d]));
  }

  /** Recovers orphaned jobs (exclusive database) and starts polling. */
  async start(): Promise<void> {
    if (this.options.exclusiveDatabase) {
      const released = await this.options.db
        .update(jobs)
        .set({ lockedUntil: sql`now() - interval '1 second'` })
        .where(eq(jobs.state, 'active'))
        .returning({ id: jobs.id });
      if (released.length > 0) {
        this.options.logger.warn(
          { jobs: released.map((j) => j.id) },
          'recovering jobs interrupted by a stop',
        );
      }
    }
    const beatMs = Math.max(250, (this.options.leaseSeconds * 1000) / 3);
    this.heartbeat = setInterval(() => void this.renewLeases(), beatMs);
    this.heartbeat.unref();
    this.loop = this.pollLoop();
  }

  /** Wakes the poll loop now (after an in-process enqueue). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Jobs this worker is running now. */
  get activeCount(): number {
    return this.running.size;
  }

  /**
   * Stops claiming, waits up to `timeoutMs` for running jobs, then aborts the rest and puts them back
   * in the queue without counting the interrupted run as an attempt.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    const pending = [...this.running.values()];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(pending.map((r) => r.done)),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    for (const r of this.running.values()) {
      r.controller.abort(new Error('worker is shutting down'));
      await this.options.db
        .update(jobs)
        .set({
          state: 'queued',
          attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
          lockToken: null,
          lockedBy: null,
          lockedUntil: null,
          runAt: sql`now()`,
        })
        .where(and(eq(jobs.id, r.row.id), eq(jobs.lockToken, r.token)));
    }
    clearInterval(this.heartbeat);
  }

  private async pollLoop(): Promise<void> {
    while (!this.stopping) {
      let claimed: JobRow | undefined;
      if (this.running.size < this.options.concurrency) {
        try {
          await this.failExhausted();
          claimed = await this.claim();
        } catch (error) {
          this.options.logger.error({ err: error }, 'job claim failed');
        }
      }
      if (claimed) {
        this.run(claimed);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollIntervalMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /**
   * Jobs whose worker died on their last allowed attempt fail instead of running again, and their owner
   * hears of it (`onExhausted`). Only the jobs this worker runs: the hook is the definition's.
   */
  private async failExhausted(): Promise<void> {
    const names = [...this.byName.keys()];
    if (names.length === 0) return;
    const failed = await this.options.db
      .update(jobs)
      .set({
        state: 'failed',
        lastError: sql`coalesce(${jobs.lastError}, 'The worker running this job stopped before it finished.')`,
        lockToken: null,
        lockedUntil: null,
        finishedAt: sql`now()`,
      })
      .where(
        and(
          inArray(jobs.name, names),
          eq(jobs.state, 'active'),
          lt(jobs.lockedUntil, sql`now()`),
          sql`${jobs.attempts} >= ${jobs.maxAttempts}`,
        ),
      )
      .returning({ id: jobs.id, name: jobs.name, payload: jobs.payload, lastError: jobs.lastError });
    for (const job of failed)
      await this.notifyExhausted(this.byName.get(job.name), job.payload, {
        jobId: job.id,
        error: job.lastError ?? '',
      });
  }

  /** Tells a job's owner that it failed for good (its definition's `onExhausted`); never throws. */
  private async notifyExhausted(
    definition: RunnableJob | undefined,
    payload: unknown,
    failure: JobFailure,
  ): Promise<void> {
    if (!definition?.onExhausted) return;
    const parsed = definition.payload.safeParse(payload);
    if (!parsed.success) return;
    try {
      await definition.onExhausted(parsed.data, failure);
    } catch (error) {
      this.options.logger.error(
        { err: error, jobId: failure.jobId, job: definition.name },
        'the owner of a failed job could not be told',
      );
    }
  }

  private async claim(): Promise<JobRow | undefined> {
    const names = [...this.byName.keys()];
    if (names.length === 0) return undefined;
    const token = newId();
    return this.options.db.transaction(async (tx) => {
      const [candidate] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            inArray(jobs.name, names),
            or(
              and(eq(jobs.state, 'queued'), lte(jobs.runAt, sql`now()`)),
              // A job whose worker died on its last attempt is failExhausted's (failed, its owner told),
              // never run once more: one that lapsed between the two queries was claimed before.
              and(
                eq(jobs.state, 'active'),
                lt(jobs.lockedUntil, sql`now()`),
                sql`${jobs.attempts} < ${jobs.maxAttempts}`,
              ),
            ),
          ),
        )
        .orderBy(asc(jobs.runAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!candidate) return undefined;
      const [row] = await tx
        .update(jobs)
        .set({
          state: 'active',
          attempts: sql`${jobs.attempts} + 1`,
          lockToken: token,
          lockedBy: this.workerId,
          lockedUntil: sql`now() + make_interval(secs => ${this.options.leaseSeconds})`,
          startedAt: sql`coalesce(${jobs.startedAt}, now())`,
        })
        .where(eq(jobs.id, candidate.id))
        .returning();
      return row;
    });
  }

  private run(row: JobRow): void {
    const token = row.lockToken ?? '';
    const controller = new AbortController();
    const entry: Running = { row, token, controller, done: Promise.resolve() };
    this.running.set(row.id, entry);
    entry.done = this.execute(row, token, controller.signal).finally(() => {
      this.running.delete(row.id);
      this.wake();
    });
  }

  private async execute(row: JobRow, token: string, signal: AbortSignal): Promise<void> {
    const { db, logger } = this.options;
    const log = logger.child({ jobId: row.id, job: row.name, attempt: row.attempts });
    const owned = and(eq(jobs.id, row.id), eq(jobs.lockToken, token));
    const definition = this.byName.get(row.name);
    try {
      if (!definition) throw new NonRetryableJobError(`No handler is registered for job "${row.name}".`);
      const parsed = definition.payload.safeParse(row.payload);
      if (!parsed.success) throw new NonRetryableJobError(`Invalid payload: ${parsed.error.message}`);
      const ctx: JobContext = {
        jobId: row.id,
        attempt: row.attempts,
        maxAttempts: row.maxAttempts,
        signal,
        progress: async (value) => {
          const clamped = Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));
          // Never backwards: an attempt that took the job over (a lost lease, a retry) starts counting
          // from 0 again, and the web showed 0.485 → 0.277 (issue 26 item 9).
          await db
            .update(jobs)
            .set({ progress: sql`greatest(${jobs.progress}, ${clamped})` })
            .where(owned);
        },
      };
      log.info('job started');
      const result = await definition.handler(parsed.data, ctx);
      const settled = await db
        .update(jobs)
        .set({
          state: 'completed',
          progress: 1,
          result: result === undefined ? null : result,
          lockToken: null,
          lockedUntil: null,
          finishedAt: sql`now()`,
        })
        .where(owned)
        .returning({ id: jobs.id });
      if (settled.length === 0) log.warn('job finished after its lease was lost; result discarded');
      else log.info('job completed');
    } catch (error) {
      if (signal.aborted) return; // stop() or a lost lease already put the job back.
      const message = error instanceof Error ? error.message : String(error);
      const retry = !(error instanceof NonRetryableJobError) && row.attempts < row.maxAttempts;
      const delay = retryDelayMs(row.backoffBaseMs, row.attempts);
      const settled = await db
        .update(jobs)
        .set(
          retry
            ? {
                state: 'queued',
                lastError: message,
                lockToken: null,
                lockedBy: null,
                lockedUntil: null,
                runAt: sql`now() + make_interval(secs => ${delay / 1000})`,
              }
            : {
                state: 'failed',
                lastError: message,
                lockToken: null,
                lockedUntil: null,
                finishedAt: sql`now()`,
              },
        )
        .where(owned)
        .returning({ id: jobs.id })
        .catch((settleError: unknown) => {
          log.error({ err: settleError }, 'could not record job failure');
          return [];
        });
      if (retry) log.warn({ err: error, retryInMs: delay }, 'job failed; will retry');
      else {
        log.error({ err: error }, 'job failed');
        // Only when this worker's row update failed the job (a lost lease leaves it to the new owner).
        if (settled.length > 0)
          await this.notifyExhausted(definition, row.payload, { jobId: row.id, error: message });
      }
    }
  }

  /** Extends the lease of every running job; a job whose lease was taken over is aborted here. */
  private async renewLeases(): Promise<void> {
    for (const r of this.running.values()) {
      try {
        const renewed = await this.options.db
          .update(jobs)
          .set({ lockedUntil: sql`now() + make_interval(secs => ${this.options.leaseSeconds})` })
          .where(and(eq(jobs.id, r.row.id), eq(jobs.lockToken, r.token)))
          .returning({ id: jobs.id });
        if (renewed.length === 0) r.controller.abort(new Error('job lease was lost'));
      } catch (error) {
        this.options.logger.error({ err: error, jobId: r.row.id }, 'lease renewal failed');
      }
    }
  }
}
