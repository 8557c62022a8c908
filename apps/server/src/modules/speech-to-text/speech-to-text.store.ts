import type { ResourceRole } from '@parla/contracts';
import { and, desc, eq, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { users } from '../users/users.tables';
import { holdsRole, type ResourceCaller } from '../workspaces';
import { type TranscriptRow, transcripts } from './speech-to-text.tables';

/** Whose transcripts: a member (their own and those shared with them) or, for jobs, a workspace by id. */
export type TranscriptScope = string | ResourceCaller;

/** A member's name as lists show it: their first name, else their email. */
const memberName = sql<string | null>`coalesce(nullif(${users.firstName}, ''), ${users.email})`;

const shareColumns = {
  id: transcripts.id,
  workspaceId: transcripts.workspaceId,
  creatorId: transcripts.userId,
};

function inScope(scope: TranscriptScope, needed: ResourceRole = 'viewer'): SQL {
  return typeof scope === 'string'
    ? eq(transcripts.workspaceId, scope)
    : holdsRole('transcript', shareColumns, scope, needed);
}

export type TranscriptInsert = typeof transcripts.$inferInsert;

export async function insertTranscript(db: Db, row: TranscriptInsert): Promise<void> {
  await db.insert(transcripts).values(row);
}

/** One transcript the scope may see (`needed` role), or undefined. */
export async function getTranscript(
  db: Db,
  scope: TranscriptScope,
  id: string,
  needed: ResourceRole = 'viewer',
): Promise<TranscriptRow | undefined> {
  const [row] = await db
    .select()
    .from(transcripts)
    .where(and(eq(transcripts.id, id), inScope(scope, needed)));
  return row;
}

/** A transcript with its creator's name, for the list and details shapes. */
export type TranscriptWithCreator = TranscriptRow & { creatorName: string | null };

/** `%`, `_` and `\` match themselves in a LIKE pattern built from user text. */
const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of transcripts, newest first, after a (created_at, id) keyset; one more read to tell `has_more`. */
export async function listTranscriptPage(
  db: Db,
  scope: TranscriptScope,
  query: {
    pageSize: number;
    after?: { createdAt: Date; id: string } | undefined;
    search?: string | undefined;
  },
): Promise<{ rows: TranscriptWithCreator[]; hasMore: boolean }> {
  const conditions: (SQL | undefined)[] = [inScope(scope)];
  if (query.after) {
    conditions.push(
      or(
        lt(transcripts.createdAt, query.after.createdAt),
        and(eq(transcripts.createdAt, query.after.createdAt), lt(transcripts.id, query.after.id)),
      ),
    );
  }
  if (query.search) conditions.push(ilike(transcripts.name, likeContains(query.search)));
  const rows = await db
    .select({ row: transcripts, creatorName: memberName })
    .from(transcripts)
    .leftJoin(users, eq(users.id, transcripts.userId))
    .where(and(...conditions))
    .orderBy(desc(transcripts.createdAt), desc(transcripts.id))
    .limit(query.pageSize + 1);
  return {
    rows: rows.slice(0, query.pageSize).map((r) => ({ ...r.row, creatorName: r.creatorName })),
    hasMore: rows.length > query.pageSize,
  };
}

/** The creator's name of one transcript. */
export async function creatorNameOf(db: Db, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [row] = await db.select({ name: memberName }).from(users).where(eq(users.id, userId));
  return row?.name ?? null;
}

/** Changes a transcript the scope holds `editor` on; the row after, or undefined. */
export async function updateTranscriptRow(
  db: Db,
  scope: TranscriptScope,
  id: string,
  changes: Partial<Pick<TranscriptRow, 'name' | 'speakerNames'>>,
): Promise<TranscriptRow | undefined> {
  const [row] = await db
    .update(transcripts)
    .set(changes)
    .where(and(eq(transcripts.id, id), inScope(scope, 'editor')))
    .returning();
  return row;
}

/** A job's write: progress, completion or failure (by id; the job's workspace is in its payload). */
export async function setTranscriptState(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<TranscriptRow>,
): Promise<TranscriptRow | undefined> {
  const [row] = await db
    .update(transcripts)
    .set(changes)
    .where(and(eq(transcripts.id, id), eq(transcripts.workspaceId, workspaceId)))
    .returning();
  return row;
}

/**
 * A running job's progress, raised to `progress` and never lowered: a job taken over by another worker (or
 * retried) counts from 0 again, and the page showed 0.485 → 0.277 (issue 26 item 9). Only while the
 * transcript is processing, so a late write never touches a finished one.
 */
export async function raiseTranscriptProgress(
  db: Db,
  workspaceId: string,
  id: string,
  progress: number,
): Promise<void> {
  await db
    .update(transcripts)
    .set({ progress: sql`greatest(${transcripts.progress}, ${progress})` })
    .where(
      and(
        eq(transcripts.id, id),
        eq(transcripts.workspaceId, workspaceId),
        eq(transcripts.status, 'processing'),
      ),
    );
}

/** Deletes a transcript the scope holds `admin` on; the row deleted, or undefined. */
export async function deleteTranscriptRow(
  db: Db,
  scope: TranscriptScope,
  id: string,
): Promise<TranscriptRow | undefined> {
  const [row] = await db
    .delete(transcripts)
    .where(and(eq(transcripts.id, id), inScope(scope, 'admin')))
    .returning();
  return row;
}
