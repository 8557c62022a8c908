import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * Generation requests running now, per workspace, for the plan's concurrency limit (accounts §9). Rows
 * in the database so every API process counts the same; a row outlives a crashed process only until it
 * expires.
 */
export const concurrencySlots = pgTable(
  'concurrency_slots',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('concurrency_slots_workspace_idx').on(t.workspaceId)],
);

/**
 * The credit ledger (issue 5 "Credits"): every charge, refund and period reset of a workspace's
 * character_count, so the count can be explained and the usage page can chart it by model and voice.
 * Within a period, character_count = sum(charges) − sum(refunds) since the last reset.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['charge', 'refund', 'reset'] }).notNull(),
    /** Credits: positive for charges and refunds alike; a reset records the count it cleared. */
    amount: integer('amount').notNull(),
    /** Ties a refund to its charge. */
    chargeId: text('charge_id'),
    apiKeyId: text('api_key_id'),
    modelId: text('model_id'),
    voiceId: text('voice_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('credit_ledger_workspace_created_idx').on(t.workspaceId, t.createdAt)],
);
