import type { ConversationAnalysis } from '@parla/contracts';
import { and, eq, gt, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type ConvaiSettingsRow, convaiSettings, conversations } from './conversations.tables';

/** The SQL of the workspace's Conversational AI settings and analytics (issue 28, settings). */

export async function getConvaiSettingsRow(
  db: Db,
  workspaceId: string,
): Promise<ConvaiSettingsRow | undefined> {
  const [row] = await db.select().from(convaiSettings).where(eq(convaiSettings.workspaceId, workspaceId));
  return row;
}

/** Writes the given columns, creating the row on first use (one statement: two writers cannot clash). */
export async function upsertConvaiSettings(
  db: Db,
  workspaceId: string,
  set: Partial<Omit<typeof convaiSettings.$inferInsert, 'workspaceId'>>,
  now: Date,
): Promise<ConvaiSettingsRow> {
  const values = { ...set, updatedAt: now };
  const [row] = await db
    .insert(convaiSettings)
    .values({ workspaceId, ...values })
    .onConflictDoUpdate({ target: convaiSettings.workspaceId, set: values })
    .returning();
  if (!row) throw new Error('the settings row was not written');
  return row;
}

/** Conversations in progress now (a fresh heartbeat), of some agents or all. */
export async function countLiveConversations(
  db: Db,
  workspaceId: string,
  since: Date,
  agentIds: string[] | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(conversations)
    .where(
      and(
        eq(conversations.workspaceId, workspaceId),
        eq(conversations.status, 'in-progress'),
        gt(conversations.heartbeatAt, since),
        agentIds ? inArray(conversations.agentId, agentIds) : undefined,
      ),
    );
  return row?.n ?? 0;
}

export interface ConversationUserFilter {
  workspaceId: string;
  agentId?: string;
  before?: Date;
  after?: Date;
  userId?: string;
  sortBy: 'last_contact_unix_secs' | 'conversation_count';
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface ConversationUserRow {
  userId: string;
  count: number;
  firstAt: Date;
  lastAt: Date;
  lastConversationId: string;
  lastAgentId: string | null;
  lastAgentName: string | null;
}

/**
 * The distinct `user_id`s clients sent with their conversations, with their counts and last contact:
 * one grouped query, the last conversation picked by `array_agg … order by started_at desc`.
 */
export async function listConversationUsers(
  db: Db,
  f: ConversationUserFilter,
): Promise<ConversationUserRow[]> {
  const lastAt = sql<Date>`max(${conversations.startedAt})`;
  const count = sql<number>`count(*)::int`;
  const key = f.sortBy === 'conversation_count' ? count : lastAt;
  const order = f.direction === 'asc' ? sql`${key} asc` : sql`${key} desc`;
  const rows = await db
    .select({
      userId: sql<string>`${conversations.clientUserId}`,
      count,
      firstAt: sql<Date>`min(${conversations.startedAt})`,
      lastAt,
      lastConversationId: sql<string>`(array_agg(${conversations.id} order by ${conversations.startedAt} desc))[1]`,
      lastAgentId: sql<
        string | null
      >`(array_agg(${conversations.agentId} order by ${conversations.startedAt} desc))[1]`,
      lastAgentName: sql<
        string | null
      >`(array_agg(${conversations.agentName} order by ${conversations.startedAt} desc))[1]`,
    })
    .from(conversations)
    .where(
      and(
        eq(conversations.workspaceId, f.workspaceId),
        isNotNull(conversations.clientUserId),
        f.agentId ? eq(conversations.agentId, f.agentId) : undefined,
        f.before ? lt(conversations.startedAt, f.before) : undefined,
        f.after ? gt(conversations.startedAt, f.after) : undefined,
        f.userId ? eq(conversations.clientUserId, f.userId) : undefined,
      ),
    )
    .groupBy(conversations.clientUserId)
    .orderBy(order, sql`${conversations.clientUserId} asc`)
    .limit(f.limit)
    .offset(f.offset);
  // PGlite hands timestamps from aggregates back as text.
  return rows.map((r) => ({ ...r, firstAt: new Date(r.firstAt), lastAt: new Date(r.lastAt) }));
}

/** Conversations and minutes charged per UTC day since `since`. */
export async function dailyConversationTotals(
  db: Db,
  workspaceId: string,
  since: Date,
  agentId: string | undefined,
): Promise<{ date: string; conversations: number; minutes: number }[]> {
  const day = sql<string>`to_char(${conversations.startedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  return db
    .select({
      date: day,
      conversations: sql<number>`count(*)::int`,
      minutes: sql<number>`coalesce(sum(${conversations.minutesCharged}), 0)::int`,
    })
    .from(conversations)
    .where(
      and(
        eq(conversations.workspaceId, workspaceId),
        gte(conversations.startedAt, since),
        agentId ? eq(conversations.agentId, agentId) : undefined,
      ),
    )
    .groupBy(day)
    .orderBy(day);
}

/** The post-call analyses since `since` (at most `limit`, newest first), for the dashboard's charts. */
export async function analysesSince(
  db: Db,
  workspaceId: string,
  since: Date,
  agentId: string | undefined,
  limit: number,
): Promise<ConversationAnalysis[]> {
  const rows = await db
    .select({ analysis: conversations.analysis })
    .from(conversations)
    .where(
      and(
        eq(conversations.workspaceId, workspaceId),
        gte(conversations.startedAt, since),
        isNotNull(conversations.analysis),
        agentId ? eq(conversations.agentId, agentId) : undefined,
      ),
    )
    .orderBy(sql`${conversations.startedAt} desc`)
    .limit(limit);
  return rows.flatMap((r) => (r.analysis ? [r.analysis] : []));
}
