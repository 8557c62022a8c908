import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Mail kept by the local outbox when no SMTP server is configured (ARCHITECTURE.md "mail"). */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: text('id').primaryKey(),
    to: text('to').notNull(),
    from: text('from').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** What the mail is for (verification, password_reset, …), so tests and people can find it. */
    kind: text('kind').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_emails_to_idx').on(t.to, t.createdAt)],
);

export type OutboxEmailRow = typeof outboxEmails.$inferSelect;
