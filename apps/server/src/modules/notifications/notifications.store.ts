import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { users } from '../users/users.tables';
import { type UserMessageRow, userMessageEvents, userMessages } from './notifications.tables';

export async function insertUserMessage(db: Db, message: typeof userMessages.$inferInsert): Promise<void> {
  await db.insert(userMessages).values(message);
}

/** A user's newest messages first. */
export async function listUserMessages(db: Db, userId: string, limit: number): Promise<UserMessageRow[]> {
  return db
    .select()
    .from(userMessages)
    .where(eq(userMessages.userId, userId))
    .orderBy(desc(userMessages.createdAt), desc(userMessages.id))
    .limit(limit);
}

export async function countUnreadUserMessages(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(userMessages)
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)));
  return row?.count ?? 0;
}

/** One of the user's own messages; another user's message is not found. */
export async function getUserMessage(
  db: Db,
  userId: string,
  messageId: string,
): Promise<UserMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(userMessages)
    .where(and(eq(userMessages.id, messageId), eq(userMessages.userId, userId)));
  return row;
}

/** Marks the user's unread messages read (one, or all when no id is given); answers the ids it changed. */
export async function markUserMessagesRead(
  db: Db,
  userId: string,
  readAt: Date,
  messageId?: string,
): Promise<string[]> {
  const rows = await db
    .update(userMessages)
    .set({ readAt })
    .where(
      and(
        eq(userMessages.userId, userId),
        isNull(userMessages.readAt),
        messageId === undefined ? undefined : eq(userMessages.id, messageId),
      ),
    )
    .returning({ id: userMessages.id });
  return rows.map((row) => row.id);
}

export async function insertUserMessageEvents(
  db: Db,
  events: (typeof userMessageEvents.$inferInsert)[],
): Promise<void> {
  if (events.length > 0) await db.insert(userMessageEvents).values(events);
}

/** The users with a verified account under any of these addresses (the invitees told under the bell). */
export async function verifiedUsersByEmail(db: Db, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.email, [...emails]), isNotNull(users.emailVerifiedAt)));
  return rows.map((row) => row.id);
}
