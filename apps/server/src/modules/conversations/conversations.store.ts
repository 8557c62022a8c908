import { createHash } from 'node:crypto';
import type { SubscriptionTier } from '@parla/contracts';
import { and, desc, eq, gt, gte, ilike, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { workspaces } from '../workspaces/workspaces.tables';
import {
  type ConversationRow,
  conversationMinutes,
  conversationSignatures,
  conversations,
} from './conversations.tables';

/** All SQL of the conversations module (issue 28 items 2, 5 and 6). */

const hashSignature = (signature: string) => createHash('sha256').update(signature).digest('hex');

export async function insertSignature(
  db: Db,
  row: { signature: string; agentId: string; workspaceId: string; userId: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await db.delete(conversationSignatures).where(lt(conversationSignatures.expiresAt, now));
  await db.insert(conversationSignatures).values({
    signatureHash: hashSignature(row.signature),
    agentId: row.agentId,
    workspaceId: row.workspaceId,
    userId: row.userId,
    expiresAt: row.expiresAt,
  });
}

/** Accepts a signature once for its agent: one UPDATE decides, so two sockets racing get one winner. */
export async function consumeSignature(
  db: Db,
  signature: string,
  agentId: string,
  now: Date,
): Promise<{ workspaceId: string; userId: string | null } | undefined> {
  const [row] = await db
    .update(conversationSignatures)
    .set({ usedAt: now })
    .where(
      and(
        eq(conversationSignatures.signatureHash, hashSignature(signature)),
        eq(conversationSignatures.agentId, agentId),
        isNull(conversationSignatures.usedAt),
        gt(conversationSignatures.expiresAt, now),
      ),
    )
    .returning({ workspaceId: conversationSignatures.workspaceId, userId: conversationSignatures.userId });
  return row;
}

/** A signed URL's owner while it may still open a conversation (not used, not expired, this agent's). */
export async function findUsableSignature(
  db: Db,
  signature: string,
  agentId: string,
  now: Date,
): Promise<{ workspaceId: string; userId: string | null } | undefined> {
  const [row] = await db
    .select({ workspaceId: conversationSignatures.workspaceId, userId: conversationSignatures.userId })
    .from(conversationSignatures)
    .where(
      and(
        eq(conversationSignatures.signatureHash, hashSignature(signature)),
        eq(conversationSignatures.agentId, agentId),
        isNull(conversationSignatures.usedAt),
        gt(conversationSignatures.expiresAt, now),
      ),
    );
  return row;
}

export async function tierOf(db: Db, workspaceId: string): Promise<SubscriptionTier | undefined> {
  const [row] = await db
    .select({ tier: workspaces.tier })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.tier;
}

/** Conversations of the workspace open now: in progress, with a heartbeat newer than `since`. */
export async function countOpenConversations(db: Db, workspaceId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(conversations)
    .where(
      and(
        eq(conversations.workspaceId, workspaceId),
        eq(conversations.status, 'in-progress'),
        gt(conversations.heartbeatAt, since),
      ),
    );
  return row?.n ?? 0;
}

export async function minutesOf(db: Db, workspaceId: string): Promise<{ used: number; extra: number }> {
  const [row] = await db
    .select()
    .from(conversationMinutes)
    .where(eq(conversationMinutes.workspaceId, workspaceId));
  return { used: row?.minutesUsed ?? 0, extra: row?.extraMinutes ?? 0 };
}

/**
 * Takes one minute for the workspace if `limit` allows (or as an extra minute when `extra` is allowed):
 * one statement, so two conversations starting at once cannot both take the last minute. Answers whether
 * it was taken, and whether as an extra minute.
 */
export async function takeMinute(
  db: Db,
  workspaceId: string,
  limit: number,
  extra: boolean,
): Promise<'plan' | 'extra' | undefined> {
  await db.insert(conversationMinutes).values({ workspaceId }).onConflictDoNothing();
  const [plan] = await db
    .update(conversationMinutes)
    .set({ minutesUsed: sql`${conversationMinutes.minutesUsed} + 1` })
    .where(and(eq(conversationMinutes.workspaceId, workspaceId), lt(conversationMinutes.minutesUsed, limit)))
    .returning({ used: conversationMinutes.minutesUsed });
  if (plan) return 'plan';
  if (!extra) return undefined;
  await db
    .update(conversationMinutes)
    .set({ extraMinutes: sql`${conversationMinutes.extraMinutes} + 1` })
    .where(eq(conversationMinutes.workspaceId, workspaceId));
  return 'extra';
}

/** A new credit period: the minutes start from zero. */
export async function resetMinutes(db: Db, workspaceId: string): Promise<void> {
  await db
    .update(conversationMinutes)
    .set({ minutesUsed: 0, extraMinutes: 0 })
    .where(eq(conversationMinutes.workspaceId, workspaceId));
}

export async function insertConversation(db: Db, row: typeof conversations.$inferInsert): Promise<void> {
  await db.insert(conversations).values(row);
}

export async function updateConversation(
  db: Db,
  id: string,
  set: Partial<typeof conversations.$inferInsert>,
): Promise<void> {
  await db.update(conversations).set(set).where(eq(conversations.id, id));
}

export async function heartbeat(db: Db, id: string, now: Date, durationSecs: number): Promise<void> {
  await db
    .update(conversations)
    .set({ heartbeatAt: now, durationSecs })
    .where(and(eq(conversations.id, id), eq(conversations.status, 'in-progress')));
}

export async function addMinuteCharged(db: Db, id: string): Promise<void> {
  await db
    .update(conversations)
    .set({ minutesCharged: sql`${conversations.minutesCharged} + 1` })
    .where(eq(conversations.id, id));
}

export async function findConversation(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.workspaceId, workspaceId)));
  return row;
}

/** A conversation by id alone: the client's feedback call carries no key (the id is the capability). */
export async function findConversationById(db: Db, id: string): Promise<ConversationRow | undefined> {
  const [row] = await db.select().from(conversations).where(eq(conversations.id, id));
  return row;
}

export interface ConversationFilter {
  workspaceId: string;
  agentId?: string | undefined;
  startedAfter?: Date | undefined;
  startedBefore?: Date | undefined;
  search?: string | undefined;
  clientUserId?: string | undefined;
  /** Cursor: the last row of the previous page (started_at, id). */
  after?: { startedAt: Date; id: string } | undefined;
  limit: number;
}

export async function listConversations(db: Db, f: ConversationFilter): Promise<ConversationRow[]> {
  const conditions = [eq(conversations.workspaceId, f.workspaceId)];
  if (f.agentId) conditions.push(eq(conversations.agentId, f.agentId));
  if (f.startedAfter) conditions.push(gte(conversations.startedAt, f.startedAfter));
  if (f.startedBefore) conditions.push(lte(conversations.startedAt, f.startedBefore));
  if (f.clientUserId) conditions.push(eq(conversations.clientUserId, f.clientUserId));
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const match = or(
      ilike(conversations.agentName, like),
      sql`${conversations.transcript}::text ilike ${like}`,
    );
    if (match) conditions.push(match);
  }
  if (f.after) {
    const before = or(
      lt(conversations.startedAt, f.after.startedAt),
      and(eq(conversations.startedAt, f.after.startedAt), lt(conversations.id, f.after.id)),
    );
    if (before) conditions.push(before);
  }
  return db
    .select()
    .from(conversations)
    .where(and(...conditions))
    .orderBy(desc(conversations.startedAt), desc(conversations.id))
    .limit(f.limit);
}

export async function deleteConversationRow(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.workspaceId, workspaceId)))
    .returning();
  return row;
}

/**
 * Conversations left in progress by a process that stopped (no heartbeat since `before`): ended as failed,
 * so they can be read, deleted and swept like any other.
 */
export async function failStaleConversations(db: Db, before: Date, now: Date): Promise<number> {
  const rows = await db
    .update(conversations)
    .set({
      status: 'failed',
      endedAt: now,
      terminationReason: 'The server that held the conversation stopped; it was ended.',
    })
    .where(and(eq(conversations.status, 'in-progress'), lt(conversations.heartbeatAt, before)))
    .returning({ id: conversations.id });
  return rows.length;
}

/** Conversations past their agent's retention (a batch), for the retention sweep. */
export async function expiredConversations(db: Db, now: Date, limit: number): Promise<ConversationRow[]> {
  return db
    .select()
    .from(conversations)
    .where(and(lt(conversations.deleteAfter, now), ne(conversations.status, 'in-progress')))
    .limit(limit);
}
