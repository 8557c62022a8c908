import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A workspace's webhooks (issue 19 item 5; history/voices §7 "webhooks (hmac …)"). The signing secret is
 * kept sealed (AES-256-GCM, platform/secrets.ts): deliveries must sign with it, so it cannot be a hash.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    /** The subscribed event types (contracts WEBHOOK_EVENT_TYPES). */
    events: jsonb('events').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** Extra headers sent with each delivery. */
    requestHeaders: jsonb('request_headers')
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    retryEnabled: boolean('retry_enabled').notNull().default(true),
    /** Switched off by an admin. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Switched off by the server after `WEBHOOK_AUTO_DISABLE_AFTER` failed deliveries in a row. */
    autoDisabledAt: timestamp('auto_disabled_at', { withTimezone: true }),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    lastFailureCode: integer('last_failure_code'),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type WebhookRow = typeof webhooks.$inferSelect;

/** Every attempt to deliver an event to a webhook (its log: the last 100 of 30 days are kept). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** One event sent to this webhook: its attempts share it. */
    deliveryId: text('delivery_id').notNull(),
    eventType: text('event_type').notNull(),
    attempt: integer('attempt').notNull(),
    /** succeeded | failed | retrying */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt)],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The server's own key that seals the secrets when WEBHOOK_SECRETS_KEY is not set (one row). */
export const webhookSealingKeys = pgTable('webhook_sealing_keys', {
  id: text('id').primaryKey(),
  key: text('key').notNull(),
});
