import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The job queue. A worker claims a queued job whose `run_at` has come with `FOR UPDATE SKIP LOCKED`,
 * holds it under a lease (`locked_until`) that its heartbeat renews, and settles it with its
 * `lock_token`; a job whose lease ran out (its worker died) is claimable again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    /** queued → active → completed | failed; active → queued on retry or lost lease. */
    state: text('state', { enum: ['queued', 'active', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    /** 0..1, reported by the handler. */
    progress: doublePrecision('progress').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    backoffBaseMs: integer('backoff_base_ms').notNull().default(1000),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockToken: text('lock_token'),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    result: jsonb('result'),
    /** Optional scope so a workspace's jobs can be listed and authorised. */
    workspaceId: text('workspace_id'),
    /** A caller-chosen key; a second enqueue with the same key returns the first job. */
    singletonKey: text('singleton_key').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_claim_idx').on(t.runAt).where(sql`${t.state} = 'queued'`),
    index('jobs_lease_idx').on(t.lockedUntil).where(sql`${t.state} = 'active'`),
    index('jobs_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
