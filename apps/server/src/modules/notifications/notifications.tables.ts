import { MESSAGE_SEVERITIES } from '@parla/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/** accounts §3 "Message": a notification for one user, shown under the bell in the app shell. */
export const userMessages = pgTable(
  'user_messages',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    severity: text('severity', { enum: MESSAGE_SEVERITIES }).notNull().default('info'),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** Shown until acted on (e.g. a workspace invite waiting for an answer). */
    needsAttention: boolean('needs_attention').notNull().default(false),
    /** Where the message's action leads in the app (a path under /app), if anywhere. */
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('user_messages_user_idx').on(t.userId, t.createdAt),
    index('user_messages_unread_idx').on(t.userId).where(sql`read_at is null`),
  ],
);

/** accounts §3 "Event": what happened to a message (read, clicked, dismissed). */
export const userMessageEvents = pgTable(
  'user_message_events',
  {
    id: text('id').primaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => userMessages.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_message_events_message_idx').on(t.messageId)],
);

export type UserMessageRow = typeof userMessages.$inferSelect;
