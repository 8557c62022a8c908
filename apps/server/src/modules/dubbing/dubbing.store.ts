import type { DubbingStatus } from '@parla/contracts';
import { and, asc, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import {
  type DubRenderRow,
  type DubRow,
  type DubSegmentLanguageRow,
  type DubSegmentRow,
  type DubSpeakerRow,
  dubRenders,
  dubSegmentLanguages,
  dubSegments,
  dubSpeakers,
  dubs,
} from './dubbing.tables';

/** All SQL of dubbing (issue 29). Reads of a dub name its workspace; its parts are reached through it. */

export async function insertDub(db: Db, row: typeof dubs.$inferInsert): Promise<void> {
  await db.insert(dubs).values(row);
}

export async function findDub(db: Db, workspaceId: string, id: string): Promise<DubRow | undefined> {
  const [row] = await db
    .select()
    .from(dubs)
    .where(and(eq(dubs.workspaceId, workspaceId), eq(dubs.id, id)));
  return row;
}

/** A page of a workspace's dubs by creation time; the cursor is the last row's `created_at|id`. */
export async function listDubRows(
  db: Db,
  workspaceId: string,
  page: {
    limit: number;
    after?: { createdAt: Date; id: string } | undefined;
    status?: DubbingStatus | undefined;
    creator?: { userId: string; mine: boolean } | undefined;
    ascending: boolean;
  },
): Promise<DubRow[]> {
  const conditions = [eq(dubs.workspaceId, workspaceId)];
  if (page.status) conditions.push(eq(dubs.status, page.status));
  if (page.creator)
    conditions.push(
      page.creator.mine
        ? eq(dubs.userId, page.creator.userId)
        : sql`${dubs.userId} is distinct from ${page.creator.userId}`,
    );
  if (page.after) {
    const { createdAt, id } = page.after;
    const cmp = page.ascending ? gt : lt;
    conditions.push(
      sql`(${cmp(dubs.createdAt, createdAt)} or (${eq(dubs.createdAt, createdAt)} and ${cmp(dubs.id, id)}))`,
    );
  }
  const order = page.ascending ? asc : desc;
  return db
    .select()
    .from(dubs)
    .where(and(...conditions))
    .orderBy(order(dubs.createdAt), order(dubs.id))
    .limit(page.limit);
}

export async function updateDub(db: Db, id: string, patch: Partial<typeof dubs.$inferInsert>): Promise<void> {
  await db.update(dubs).set(patch).where(eq(dubs.id, id));
}

/** Marks the dub changed (the editor's version) and answers its new version. */
export async function bumpVersion(db: Db, id: string): Promise<number> {
  const [row] = await db
    .update(dubs)
    .set({ version: sql`${dubs.version} + 1` })
    .where(eq(dubs.id, id))
    .returning({ version: dubs.version });
  return row?.version ?? 0;
}

export async function deleteDubRow(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const gone = await db
    .delete(dubs)
    .where(and(eq(dubs.workspaceId, workspaceId), eq(dubs.id, id)))
    .returning({ id: dubs.id });
  return gone.length > 0;
}

export async function dubIdsOfWorkspace(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db.select({ id: dubs.id }).from(dubs).where(eq(dubs.workspaceId, workspaceId));
  return rows.map((r) => r.id);
}

// ---- speakers ------------------------------------------------------------------------------------------

export async function insertSpeakers(db: Db, rows: (typeof dubSpeakers.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(dubSpeakers).values(rows);
}

export async function listSpeakers(db: Db, dubId: string): Promise<DubSpeakerRow[]> {
  return db.select().from(dubSpeakers).where(eq(dubSpeakers.dubId, dubId)).orderBy(asc(dubSpeakers.position));
}

export async function updateSpeaker(
  db: Db,
  dubId: string,
  id: string,
  patch: Partial<typeof dubSpeakers.$inferInsert>,
): Promise<boolean> {
  const rows = await db
    .update(dubSpeakers)
    .set(patch)
    .where(and(eq(dubSpeakers.dubId, dubId), eq(dubSpeakers.id, id)))
    .returning({ id: dubSpeakers.id });
  return rows.length > 0;
}

// ---- segments ------------------------------------------------------------------------------------------

export async function insertSegments(db: Db, rows: (typeof dubSegments.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(dubSegments).values(rows);
}

export async function listSegments(db: Db, dubId: string): Promise<DubSegmentRow[]> {
  return db
    .select()
    .from(dubSegments)
    .where(eq(dubSegments.dubId, dubId))
    .orderBy(asc(dubSegments.startTime), asc(dubSegments.id));
}

export async function updateSegment(
  db: Db,
  dubId: string,
  id: string,
  patch: Partial<typeof dubSegments.$inferInsert>,
): Promise<boolean> {
  const rows = await db
    .update(dubSegments)
    .set(patch)
    .where(and(eq(dubSegments.dubId, dubId), eq(dubSegments.id, id)))
    .returning({ id: dubSegments.id });
  return rows.length > 0;
}

export async function deleteSegment(db: Db, dubId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(dubSegments)
    .where(and(eq(dubSegments.dubId, dubId), eq(dubSegments.id, id)))
    .returning({ id: dubSegments.id });
  return rows.length > 0;
}

// ---- segments per language -----------------------------------------------------------------------------

export async function listSegmentLanguages(db: Db, dubId: string): Promise<DubSegmentLanguageRow[]> {
  return db.select().from(dubSegmentLanguages).where(eq(dubSegmentLanguages.dubId, dubId));
}

/** Adds the language rows a segment lacks (untranslated, no audio); existing rows are kept. */
export async function ensureSegmentLanguages(
  db: Db,
  rows: (typeof dubSegmentLanguages.$inferInsert)[],
): Promise<void> {
  if (rows.length > 0) await db.insert(dubSegmentLanguages).values(rows).onConflictDoNothing();
}

export async function updateSegmentLanguage(
  db: Db,
  segmentId: string,
  language: string,
  patch: Partial<typeof dubSegmentLanguages.$inferInsert>,
): Promise<void> {
  await db
    .update(dubSegmentLanguages)
    .set(patch)
    .where(and(eq(dubSegmentLanguages.segmentId, segmentId), eq(dubSegmentLanguages.language, language)));
}

/** Marks the clips of these segments stale (in these languages, or all). */
export async function markStale(db: Db, segmentIds: string[], languages?: string[]): Promise<void> {
  if (segmentIds.length === 0) return;
  const conditions = [inArray(dubSegmentLanguages.segmentId, segmentIds)];
  if (languages) conditions.push(inArray(dubSegmentLanguages.language, languages));
  await db
    .update(dubSegmentLanguages)
    .set({ audioStale: true })
    .where(and(...conditions));
}

// ---- renders -------------------------------------------------------------------------------------------

export async function insertRender(db: Db, row: typeof dubRenders.$inferInsert): Promise<void> {
  await db.insert(dubRenders).values(row);
}

export async function listRenders(db: Db, dubId: string): Promise<DubRenderRow[]> {
  return db.select().from(dubRenders).where(eq(dubRenders.dubId, dubId)).orderBy(asc(dubRenders.createdAt));
}

export async function findRender(db: Db, dubId: string, id: string): Promise<DubRenderRow | undefined> {
  const [row] = await db
    .select()
    .from(dubRenders)
    .where(and(eq(dubRenders.dubId, dubId), eq(dubRenders.id, id)));
  return row;
}

export async function updateRender(
  db: Db,
  id: string,
  patch: Partial<typeof dubRenders.$inferInsert>,
): Promise<void> {
  await db.update(dubRenders).set(patch).where(eq(dubRenders.id, id));
}

/** The newest finished dub output of a language (automatic, or the newest render of its default type). */
export async function latestOutput(
  db: Db,
  dubId: string,
  language: string,
): Promise<DubRenderRow | undefined> {
  const [row] = await db
    .select()
    .from(dubRenders)
    .where(
      and(
        eq(dubRenders.dubId, dubId),
        eq(dubRenders.language, language),
        eq(dubRenders.status, 'complete'),
        eq(dubRenders.automatic, true),
      ),
    )
    .orderBy(desc(dubRenders.createdAt))
    .limit(1);
  return row;
}
