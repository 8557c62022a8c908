import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { newId } from '../ids';
import type { JobDefinition } from './job-definition';
import { type JobRow, jobs } from './jobs.tables';

export interface EnqueueOptions {
  workspaceId?: string;
  /** Run no earlier than this. */
  runAt?: Date;
  /** A second enqueue with the same key returns the first job instead of adding one. */
  singletonKey?: string;
}

/** Adds jobs and reads their state; the worker runs them. */
export class JobQueue {
  /** Called after an enqueue so an in-process worker can claim without waiting for its next poll. */
  onEnqueued: (() => void) | undefined;

  constructor(private readonly db: Db) {}

  /** Validates the payload against the job's schema and stores the job; returns its id. */
  async enqueue<P>(
    definition: JobDefinition<P, unknown>,
    payload: P,
    options: EnqueueOptions = {},
  ): Promise<string> {
    const id = await this.enqueueIn(this.db, definition, payload, options);
    this.onEnqueued?.();
    return id;
  }

  /**
   * Stores the job with `db`, which may be a transaction: the job exists only if that commits (a domain
   * event's durable handler). The in-process worker is not woken: call `wake()` after the commit.
   */
  async enqueueIn<P>(
    db: Db,
    definition: JobDefinition<P, unknown>,
    payload: P,
    options: EnqueueOptions = {},
  ): Promise<string> {
    const data = definition.payload.parse(payload);
    const id = newId();
    const inserted = await db
      .insert(jobs)
      .values({
        id,
        name: definition.name,
        payload: data,
        maxAttempts: definition.maxAttempts ?? 3,
        backoffBaseMs: definition.backoffBaseMs ?? 1000,
        runAt: options.runAt ?? sql`now()`,
        workspaceId: options.workspaceId ?? null,
        singletonKey: options.singletonKey ?? null,
      })
      .onConflictDoNothing({ target: jobs.singletonKey })
      .returning({ id: jobs.id });
    if (inserted.length === 0 && options.singletonKey) {
      const [existing] = await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(eq(jobs.singletonKey, options.singletonKey));
      if (existing) return existing.id;
    }
    return id;
  }

  /** Tells an in-process worker that jobs wait (after a transaction that enqueued some committed). */
  wake(): void {
    this.onEnqueued?.();
  }

  /**
   * Frees a settled job's singleton key, so the next enqueue with that key adds a new job (a retry asked
   * for by a person, after the job's own attempts were spent).
   */
  async releaseSingletonKey(id: string): Promise<void> {
    await this.db
      .update(jobs)
      .set({ singletonKey: null })
      .where(and(eq(jobs.id, id), inArray(jobs.state, ['completed', 'failed'])));
  }

  async getJob(id: string): Promise<JobRow | undefined> {
    const [row] = await this.db.select().from(jobs).where(eq(jobs.id, id));
    return row;
  }
}
