import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
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
