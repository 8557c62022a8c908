import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * Generation requests running now and realtime sockets open now, per workspace, for the plan's
 * concurrency limit (accounts §9), each with the charge it reserved: the durable reservation of issue 16. Rows live in the database so every
 * process counts the same. The process running the generation renews `expires_at` (its lease) while it
 * works; a row whose lease ran out belongs to a process that is gone, and is swept: its charge refunded,
 * its slot freed (generation-leases.ts). Settling deletes the row in the transaction that keeps the result.
 */
export const concurrencySlots = pgTable(
  'concurrency_slots',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The lease: renewed by the live process, on the database's clock. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The ledger row of the credits reserved (none for work that reserved no credits: a socket's slot). */
    chargeId: text('charge_id'),
    /**
     * Credits of the charge already delivered and kept (a socket's speech, sentence by sentence): a refund,
     * or the sweep after a crash, gives back only the rest (decision record 0016).
     */
    settled: integer('settled').notNull().default(0),
    /**
     * The slot this row runs within (a socket's, held for the socket's life): such a row holds credits
     * under its own lease but no place of the plan's concurrency of its own — it is not counted.
     */
    withinSlotId: text('within_slot_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('concurrency_slots_workspace_idx').on(t.workspaceId),
    index('concurrency_slots_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The credits a workspace spent this period (accounts §3 character_count): raised by every charge, lowered
 * by every refund, back to 0 when a period starts (billing's `credits.period_started`). No row: none spent.
 */
export const creditBalances = pgTable('credit_balances', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  used: integer('used').notNull().default(0),
});

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
