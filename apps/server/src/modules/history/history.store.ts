import {
  describeOutputFormat,
  FEEDBACK_NOT_REVIEWED,
  type HistoryFeedback,
  type ResourceRole,
} from '@parla/contracts';
import { and, asc, desc, eq, gte, ilike, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import type { Storage } from '../../platform/storage/storage';
import { users } from '../users/users.tables';
import { holdsRole, type ResourceCaller } from '../workspaces';
import { historyAudioKey } from './history.files';
import { type HistoryItemRow, historyItemColumns, historyItems } from './history.tables';

/**
 * Whose items: a member (their own and those shared with them, modules/workspaces/sharing.store) or,
 * for the server's own jobs, a whole workspace by id.
 */
export type HistoryScope = string | ResourceCaller;

/** The workspace a scope is in. */
export function scopeWorkspace(scope: HistoryScope): string {
  return typeof scope === 'string' ? scope : scope.workspaceId;
}

const historyColumns = {
  id: historyItems.id,
  workspaceId: historyItems.workspaceId,
  creatorId: historyItems.userId,
};

/** The items of the scope the caller holds at least `needed` on. */
function inScope(scope: HistoryScope, needed: ResourceRole = 'viewer'): SQL {
  return typeof scope === 'string'
    ? eq(historyItems.workspaceId, scope)
    : holdsRole('history_item', historyColumns, scope, needed);
}

export interface HistoryPageQuery {
  scope: HistoryScope;
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

/** Whether a search has a word to look for (letters or digits); one of symbols only is matched literally. */
export function hasSearchWords(search: string): boolean {
  return /[\p{L}\p{N}]/u.test(search);
}

/**
 * A full-text query from what a user typed: the words as PostgreSQL's 'simple' parser reads them (the
 * parser that built the column, so `3.5`, `a@b.com` or a URL stay one word), each matched as a prefix and
 * all of them needed (`rain fo` finds "Rain in the forest"). quote_literal keeps any input from breaking
 * the query's syntax.
 */
function searchMatches(search: string): SQL {
  return sql`${historyItems.searchVector} @@ (
    select coalesce(to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & ')), ''::tsquery)
    from unnest(to_tsvector('simple', ${search})))`;
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
  const where: (SQL | undefined)[] = [inScope(query.scope)];
  if (query.voiceId) where.push(eq(historyItems.voiceId, query.voiceId));
  if (query.modelId) where.push(eq(historyItems.modelId, query.modelId));
  if (query.source) where.push(eq(historyItems.source, query.source));
  // The generated tsvector column, through its GIN index (to_tsvector('simple', text)).
  if (query.search && hasSearchWords(query.search)) where.push(searchMatches(query.search));
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
    .select(historyItemColumns)
    .from(historyItems)
    .where(and(...where))
    .orderBy(order(historyItems.createdAt), order(historyItems.id))
    .limit(query.pageSize + 1);
  return { rows: rows.slice(0, query.pageSize), hasMore: rows.length > query.pageSize };
}

/** An item of this workspace; another workspace's id reads as absent. */
export async function getHistoryItem(
  db: Db,
  scope: HistoryScope,
  id: string,
  needed: ResourceRole = 'viewer',
): Promise<HistoryItemRow | undefined> {
  const [row] = await db
    .select(historyItemColumns)
    .from(historyItems)
    .where(and(inScope(scope, needed), eq(historyItems.id, id)));
  return row;
}

/**
 * Stores an item's feedback unless it has been reviewed: one statement, so two submissions cannot both
 * pass the check. Returns the row as it is now (unchanged when refused), or undefined if it is not the
 * workspace's.
 */
export async function saveHistoryFeedback(
  db: Db,
  scope: HistoryScope,
  id: string,
  feedback: HistoryFeedback,
): Promise<{ saved: boolean; row: HistoryItemRow | undefined }> {
  const [saved] = await db
    .update(historyItems)
    .set({ feedback })
    .where(
      and(
        inScope(scope, 'commenter'),
        eq(historyItems.id, id),
        or(
          isNull(historyItems.feedback),
          sql`${historyItems.feedback}->>'review_status' = ${FEEDBACK_NOT_REVIEWED}`,
        ),
      ),
    )
    .returning(historyItemColumns);
  if (saved) return { saved: true, row: saved };
  return { saved: false, row: await getHistoryItem(db, scope, id, 'commenter') };
}

/** Several items of this workspace by id, in no particular order; ids of others are simply absent. */
export async function getHistoryItems(db: Db, scope: HistoryScope, ids: string[]): Promise<HistoryItemRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(historyItemColumns)
    .from(historyItems)
    .where(and(inScope(scope), inArray(historyItems.id, ids)));
}

/** Deletes an item of this workspace; returns it as it was, or undefined if it was not there. */
export async function deleteHistoryRow(
  db: Db,
  scope: HistoryScope,
  id: string,
): Promise<HistoryItemRow | undefined> {
  const [row] = await db
    .delete(historyItems)
    .where(and(inScope(scope, 'admin'), eq(historyItems.id, id)))
    .returning(historyItemColumns);
  return row;
}

/**
 * Gives an item a share link id unless it has one (one statement, so two calls agree) and records who
 * shared it last — the share page shows their public name, the one their share dialog shows and edits.
 * Returns the id.
 */
export async function ensureShareLinkId(
  db: Db,
  scope: HistoryScope,
  id: string,
  candidate: { shareLinkId: string; userId: string },
): Promise<string | undefined> {
  const [row] = await db
    .update(historyItems)
    .set({
      shareLinkId: sql`coalesce(${historyItems.shareLinkId}, ${candidate.shareLinkId})`,
      sharedByUserId: candidate.userId,
    })
    .where(and(inScope(scope, 'editor'), eq(historyItems.id, id)))
    .returning({ shareLinkId: historyItems.shareLinkId });
  return row?.shareLinkId ?? undefined;
}

/** The item behind a public share link, with its sharer's public name; undefined once deleted. */
export async function getSharedItem(
  db: Db,
  shareLinkId: string,
): Promise<{ row: HistoryItemRow; publicUserName: string | null } | undefined> {
  const [found] = await db
    .select({ row: historyItemColumns, publicUserName: users.publicUserName })
    .from(historyItems)
    .leftJoin(users, eq(users.id, historyItems.sharedByUserId))
    .where(eq(historyItems.shareLinkId, shareLinkId));
  return found ? { row: found.row, publicUserName: found.publicUserName ?? null } : undefined;
}

import type { HistoryItemInsert } from './history.tables';

/**
 * Stores a generation's audio and writes its history item (one statement, which settles the reserved
 * credits through character_count_change_from/to); the file is removed again if the row is not written.
 */
export async function insertHistoryItem(
  deps: { db: Db; storage: Storage },
  item: HistoryItemInsert,
  audio: Buffer,
  /** Runs in the transaction that writes the row (a generation settles its credits there). */
  alongside?: (tx: Db) => Promise<void>,
): Promise<string> {
  const spec = describeOutputFormat(item.outputFormat);
  const audioKey = historyAudioKey(item.workspaceId, item.id, spec.extension);
  await deps.storage.put(audioKey, audio);
  try {
    await deps.db.transaction(async (tx) => {
      await alongside?.(tx);
      await tx
        .insert(historyItems)
        .values({ ...item, audioKey, contentType: spec.contentType, audioBytes: audio.length });
    });
  } catch (error) {
    await deps.storage.delete(audioKey).catch(() => undefined);
    throw error;
  }
  return item.id;
}
