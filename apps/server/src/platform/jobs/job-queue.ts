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
  async enqueue<P>(definition: JobDefinition<P>, payload: P, options: EnqueueOptions = {}): Promise<string> {
    const data = definition.payload.parse(payload);
    const id = newId();
    const inserted = await this.db
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
      const [existing] = await this.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(eq(jobs.singletonKey, options.singletonKey));
      if (existing) return existing.id;
    }
    this.onEnqueued?.();
    return id;
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
