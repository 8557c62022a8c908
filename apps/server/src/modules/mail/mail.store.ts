import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type OutboxEmailRow, outboxEmails } from './mail.tables';

export async function insertOutboxEmail(db: Db, email: typeof outboxEmails.$inferInsert): Promise<void> {
  await db.insert(outboxEmails).values(email);
}

/** The newest outbox mails first, optionally for one recipient. */
export async function listOutboxEmails(
  db: Db,
  options: { to?: string; limit: number },
): Promise<OutboxEmailRow[]> {
  return db
    .select()
    .from(outboxEmails)
    .where(options.to ? eq(outboxEmails.to, options.to.toLowerCase()) : undefined)
    .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
    .limit(options.limit);
}

export async function getOutboxEmail(db: Db, id: string): Promise<OutboxEmailRow | undefined> {
  const [row] = await db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
  return row;
}
