import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window request counters shared by every API process (ARCHITECTURE.md "Scale-out path":
 * rate-limit counters live in PostgreSQL). One row per route and client key.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  windowMs: integer('window_ms').notNull(),
});
