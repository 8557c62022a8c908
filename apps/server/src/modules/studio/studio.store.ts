import type { SubscriptionTier } from '@parla/contracts';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { workspaces } from '../workspaces/workspaces.tables';
import {
  type StudioBlockRow,
  type StudioChapterRow,
  type StudioChapterSnapshotRow,
  type StudioProjectRow,
  type StudioProjectSnapshotRow,
  studioBlocks,
  studioChapterSnapshots,
  studioChapters,
  studioProjectSnapshots,
  studioProjects,
} from './studio.tables';

/** Every query of the studio module (docs/modules.md: a module's SQL lives in its stores). */

/** The workspace's plan tier (read in a join, as the recipe allows), locked when `lock`. */
export async function workspaceTierOf(db: Db, workspaceId: string): Promise<SubscriptionTier | undefined> {
  const [row] = await db
    .select({ tier: workspaces.tier })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .for('update');
  return row?.tier as SubscriptionTier | undefined;
}

export async function countProjects(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(studioProjects)
    .where(eq(studioProjects.workspaceId, workspaceId));
  return Number(row?.n ?? 0);
}

export async function insertProject(
  db: Db,
  row: typeof studioProjects.$inferInsert,
): Promise<StudioProjectRow> {
  const [made] = await db.insert(studioProjects).values(row).returning();
  return made as StudioProjectRow;
}

export async function findProject(
  db: Db,
  workspaceId: string,
  projectId: string,
  lock = false,
): Promise<StudioProjectRow | undefined> {
  const query = db
    .select()
    .from(studioProjects)
    .where(and(eq(studioProjects.workspaceId, workspaceId), eq(studioProjects.id, projectId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export function listProjects(db: Db, workspaceId: string): Promise<StudioProjectRow[]> {
  return db
    .select()
    .from(studioProjects)
    .where(eq(studioProjects.workspaceId, workspaceId))
    .orderBy(desc(studioProjects.createdAt), desc(studioProjects.id));
}

export async function updateProject(
  db: Db,
  projectId: string,
  patch: Partial<typeof studioProjects.$inferInsert>,
): Promise<StudioProjectRow | undefined> {
  const [row] = await db
    .update(studioProjects)
    .set(patch)
    .where(eq(studioProjects.id, projectId))
    .returning();
  return row;
}

export async function deleteProjectRow(db: Db, workspaceId: string, projectId: string): Promise<boolean> {
  const gone = await db
    .delete(studioProjects)
    .where(and(eq(studioProjects.workspaceId, workspaceId), eq(studioProjects.id, projectId)))
    .returning({ id: studioProjects.id });
  return gone.length > 0;
}

export function listChapters(db: Db, projectId: string): Promise<StudioChapterRow[]> {
  return db
    .select()
    .from(studioChapters)
    .where(eq(studioChapters.projectId, projectId))
    .orderBy(asc(studioChapters.position), asc(studioChapters.id));
}

export async function findChapter(
  db: Db,
  projectId: string,
  chapterId: string,
): Promise<StudioChapterRow | undefined> {
  const [row] = await db
    .select()
    .from(studioChapters)
    .where(and(eq(studioChapters.projectId, projectId), eq(studioChapters.id, chapterId)));
  return row;
}

export async function insertChapter(
  db: Db,
  row: typeof studioChapters.$inferInsert,
): Promise<StudioChapterRow> {
  const [made] = await db.insert(studioChapters).values(row).returning();
  return made as StudioChapterRow;
}

export async function updateChapter(
  db: Db,
  chapterId: string,
  patch: Partial<typeof studioChapters.$inferInsert>,
): Promise<void> {
  await db.update(studioChapters).set(patch).where(eq(studioChapters.id, chapterId));
}

/**
 * A running conversion's progress of a chapter, written only while the chapter is still converting: a
 * write that comes late (a block finishing after the conversion failed, or a run that lost its job) never
 * overwrites the failed state and its cleared progress.
 */
export async function setConversionProgress(db: Db, chapterId: string, progress: number): Promise<void> {
  await db
    .update(studioChapters)
    .set({ conversionProgress: progress })
    .where(and(eq(studioChapters.id, chapterId), eq(studioChapters.state, 'converting')));
}

export async function updateChapters(
  db: Db,
  chapterIds: string[],
  patch: Partial<typeof studioChapters.$inferInsert>,
): Promise<void> {
  if (chapterIds.length === 0) return;
  await db.update(studioChapters).set(patch).where(inArray(studioChapters.id, chapterIds));
}

export async function deleteChapterRow(db: Db, projectId: string, chapterId: string): Promise<boolean> {
  const gone = await db
    .delete(studioChapters)
    .where(and(eq(studioChapters.projectId, projectId), eq(studioChapters.id, chapterId)))
    .returning({ id: studioChapters.id });
  return gone.length > 0;
}

/** Removes every chapter of a project (the content call replaces them). */
export async function deleteProjectChapters(db: Db, projectId: string): Promise<void> {
  await db.delete(studioChapters).where(eq(studioChapters.projectId, projectId));
}

export function listBlocks(db: Db, chapterId: string): Promise<StudioBlockRow[]> {
  return db
    .select()
    .from(studioBlocks)
    .where(eq(studioBlocks.chapterId, chapterId))
    .orderBy(asc(studioBlocks.position), asc(studioBlocks.id));
}

export function listProjectBlocks(db: Db, projectId: string): Promise<StudioBlockRow[]> {
  return db
    .select()
    .from(studioBlocks)
    .where(eq(studioBlocks.projectId, projectId))
    .orderBy(asc(studioBlocks.chapterId), asc(studioBlocks.position));
}

/** A chapter's blocks replaced by `rows` (ids kept where the caller kept them). */
export async function replaceBlocks(
  db: Db,
  chapterId: string,
  rows: (typeof studioBlocks.$inferInsert)[],
): Promise<void> {
  await db.delete(studioBlocks).where(eq(studioBlocks.chapterId, chapterId));
  for (let i = 0; i < rows.length; i += 500) await db.insert(studioBlocks).values(rows.slice(i, i + 500));
}

export async function setBlockHash(db: Db, blockId: string, hash: string): Promise<void> {
  await db.update(studioBlocks).set({ convertedHash: hash }).where(eq(studioBlocks.id, blockId));
}

export async function insertChapterSnapshot(
  db: Db,
  row: typeof studioChapterSnapshots.$inferInsert,
): Promise<void> {
  await db.insert(studioChapterSnapshots).values(row);
}

export async function insertProjectSnapshot(
  db: Db,
  row: typeof studioProjectSnapshots.$inferInsert,
): Promise<void> {
  await db.insert(studioProjectSnapshots).values(row);
}

export function listProjectSnapshots(db: Db, projectId: string): Promise<StudioProjectSnapshotRow[]> {
  return db
    .select()
    .from(studioProjectSnapshots)
    .where(eq(studioProjectSnapshots.projectId, projectId))
    .orderBy(desc(studioProjectSnapshots.createdAt), desc(studioProjectSnapshots.id));
}

export async function findProjectSnapshot(
  db: Db,
  projectId: string,
  snapshotId: string,
): Promise<StudioProjectSnapshotRow | undefined> {
  const [row] = await db
    .select()
    .from(studioProjectSnapshots)
    .where(and(eq(studioProjectSnapshots.projectId, projectId), eq(studioProjectSnapshots.id, snapshotId)));
  return row;
}

export function listChapterSnapshots(db: Db, chapterId: string): Promise<StudioChapterSnapshotRow[]> {
  return db
    .select()
    .from(studioChapterSnapshots)
    .where(eq(studioChapterSnapshots.chapterId, chapterId))
    .orderBy(desc(studioChapterSnapshots.createdAt), desc(studioChapterSnapshots.id));
}

export async function findChapterSnapshot(
  db: Db,
  projectId: string,
  snapshotId: string,
): Promise<StudioChapterSnapshotRow | undefined> {
  const [row] = await db
    .select()
    .from(studioChapterSnapshots)
    .where(and(eq(studioChapterSnapshots.projectId, projectId), eq(studioChapterSnapshots.id, snapshotId)));
  return row;
}

export function findChapterSnapshots(db: Db, ids: string[]): Promise<StudioChapterSnapshotRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(studioChapterSnapshots).where(inArray(studioChapterSnapshots.id, ids));
}
