import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * API keys (accounts §3 User: "an API key with a preview and a hashed flag"; issue 3 item 8). Only the
 * SHA-256 of a key is kept; the key itself is shown once, at creation.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /** What the owner sees to tell keys apart, e.g. `sk_…3f9a`. */
    preview: text('preview').notNull(),
    /** Credits this key may spend per period; null = the workspace's own limit. */
    characterLimit: integer('character_limit'),
    /** Credits spent with this key in the current period (checked against character_limit). */
    characterCount: integer('character_count').notNull().default(0),
    /** A key turned off by its owner is refused like an unknown key until turned on again. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
