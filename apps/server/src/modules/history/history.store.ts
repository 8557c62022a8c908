import { FEEDBACK_NOT_REVIEWED, type HistoryFeedback } from '@parla/contracts';
import { and, asc, desc, eq, gte, ilike, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { users } from '../users/users.tables';
import { type HistoryItemRow, historyItems } from './history.tables';

export interface HistoryPageQuery {
  workspaceId: string;
  pageSize: number;
  /** The item the page starts after (keyset: its time and id), already checked to be this workspace's. */
  after?: Pick<HistoryItemRow, 'createdAt' | 'id'> | undefined;
  voiceId?: string | undefined;
  modelId?: string | undefined;
  source?: HistoryItemRow['source'] | undefined;
  /** Items whose text has words starting with each word of this (full-text, any case). */
  search?: string | undefined;
  before?: Date | undefined;
  since?: Date | undefined;
  direction: 'asc' | 'desc';
}

/** `%`, `_` and `\` match themselves in a LIKE pattern built from user text. */
function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A full-text query from what a user typed: every word must start a word of the text (`rain fo` finds
 * "Rain in the forest"). Only letters and digits reach the query, so no input can break its syntax.
 * Undefined when the search has no word at all (only symbols): that is matched literally instead.
 */
export function searchQuery(search: string): string | undefined {
  const words = search.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words) return undefined;
  return words.map((word) => `${word}:*`).join(' & ');
}

/**
 * One page of a workspace's history, newest first (or oldest first), continuing after an item by its
 * (created_at, id) — a keyset that uses the (workspace_id, created_at, id) index whatever the page number.
 * Reads one row more than asked to tell whether more follow.
 */
export async function listHistoryPage(
  db: Db,
  query: HistoryPageQuery,
): Promise<{ rows: HistoryItemRow[]; hasMore: boolean }> {
  const where: (SQL | undefined)[] = [eq(historyItems.workspaceId, query.workspaceId)];
  if (query.voiceId) where.push(eq(historyItems.voiceId, query.voiceId));
  if (query.modelId) where.push(eq(historyItems.modelId, query.modelId));
  if (query.source) where.push(eq(historyItems.source, query.source));
  const words = query.search ? searchQuery(query.search) : undefined;
  // The generated tsvector column, through its GIN index (to_tsvector('simple', text)).
  if (words) where.push(sql`${historyItems.searchVector} @@ to_tsquery('simple', ${words})`);
  else if (query.search) where.push(ilike(historyItems.text, likeContains(query.search)));
  if (query.before) where.push(lt(historyItems.createdAt, query.before));
  if (query.since) where.push(gte(historyItems.createdAt, query.since));
  if (query.after) {
    // A row comparison, which PostgreSQL turns into a range of the (workspace_id, created_at, id) index;
    // the equivalent `a < x or (a = x and b < y)` is a filter, read from the first row on.
    const { createdAt, id } = query.after;
    const beyond = query.direction === 'desc' ? sql.raw('<') : sql.raw('>');
    where.push(sql`(${historyItems.createdAt}, ${historyItems.id}) ${beyond} (${createdAt}, ${id})`);
  }
  const order = query.direction === 'desc' ? desc : asc;
  const rows = await db
    .select()
    .from(historyItems)
    .where(and(...where))
    .orderBy(order(historyItems.createdAt), order(historyItems.id))
    .limit(query.pageSize + 1);
  return { rows: rows.slice(0, query.pageSize), hasMore: rows.length > query.pageSize };
}

/** An item of this workspace; another workspace's id reads as absent. */
export async function getHistoryItem(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<HistoryItemRow | undefined> {
  const [row] = await db
    .select()
    .from(historyItems)
    .where(and(eq(historyItems.workspaceId, workspaceId), eq(historyItems.id, id)));
  return row;
}

/**
 * Stores an item's feedback unless it has been reviewed: one statement, so two submissions cannot both
 * pass the check. Returns the row as it is now (unchanged when refused), or undefined if it is not the
 * workspace's.
 */
export async function saveHistoryFeedback(
  db: Db,
  workspaceId: string,
  id: string,
  feedback: HistoryFeedback,
): Promise<{ saved: boolean; row: HistoryItemRow | undefined }> {
  const [saved] = await db
    .update(historyItems)
    .set({ feedback })
    .where(
      and(
        eq(historyItems.workspaceId, workspaceId),
        eq(historyItems.id, id),
        or(
          isNull(historyItems.feedback),
          sql`${historyItems.feedback}->>'review_status' = ${FEEDBACK_NOT_REVIEWED}`,
        ),
      ),
    )
    .returning();
  if (saved) return { saved: true, row: saved };
  return { saved: false, row: await getHistoryItem(db, workspaceId, id) };
}

/** Several items of this workspace by id, in no particular order; ids of others are simply absent. */
export async function getHistoryItems(db: Db, workspaceId: string, ids: string[]): Promise<HistoryItemRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(historyItems)
    .where(and(eq(historyItems.workspaceId, workspaceId), inArray(historyItems.id, ids)));
}

/** Deletes an item of this workspace; returns it as it was, or undefined if it was not there. */
export async function deleteHistoryRow(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<HistoryItemRow | undefined> {
  const [row] = await db
    .delete(historyItems)
    .where(and(eq(historyItems.workspaceId, workspaceId), eq(historyItems.id, id)))
    .returning();
  return row;
}

/** Gives an item a share link id unless it has one (one statement, so two calls agree); returns the id. */
export async function ensureShareLinkId(
  db: Db,
  workspaceId: string,
  id: string,
  candidate: string,
): Promise<string | undefined> {
  const [row] = await db
    .update(historyItems)
    .set({ shareLinkId: sql`coalesce(${historyItems.shareLinkId}, ${candidate})` })
    .where(and(eq(historyItems.workspaceId, workspaceId), eq(historyItems.id, id)))
    .returning({ shareLinkId: historyItems.shareLinkId });
  return row?.shareLinkId ?? undefined;
}

/** The item behind a public share link, with its owner's public name; undefined once deleted. */
export async function getSharedItem(
  db: Db,
  shareLinkId: string,
): Promise<{ row: HistoryItemRow; publicUserName: string | null } | undefined> {
  const [found] = await db
    .select({ row: historyItems, publicUserName: users.publicUserName })
    .from(historyItems)
    .leftJoin(users, eq(users.id, historyItems.userId))
    .where(eq(historyItems.shareLinkId, shareLinkId));
  return found ? { row: found.row, publicUserName: found.publicUserName ?? null } : undefined;
}
