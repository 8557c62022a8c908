import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { holdsRole, type ResourceCaller } from '../workspaces';
import { voiceColumns } from './voices.store';
import { voiceCollections, voices } from './voices.tables';

export type CollectionRow = typeof voiceCollections.$inferSelect;

/** Of these own voice ids, those the predicate admits (one query). */
async function ownVoiceIdsAmong(db: Db, ids: readonly string[], admits: SQL): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: voices.id })
    .from(voices)
    .where(and(inArray(voices.id, [...ids]), admits));
  return rows.map((row) => row.id);
}

/** Of these own voice ids, those the caller holds a role on. */
export const usableOwnVoiceIds = (db: Db, caller: ResourceCaller, ids: readonly string[]) =>
  ownVoiceIdsAmong(db, ids, holdsRole('voice', voiceColumns, caller));

/** Of these own voice ids, those still naming a voice of the workspace (anyone's). */
export const workspaceOwnVoiceIds = (db: Db, workspaceId: string, ids: readonly string[]) =>
  ownVoiceIdsAmong(db, ids, eq(voices.workspaceId, workspaceId));

/** A collection of the workspace, its row locked when asked, or undefined. */
export async function findCollectionRow(
  db: Db,
  workspaceId: string,
  id: string,
  lock = false,
): Promise<CollectionRow | undefined> {
  const query = db
    .select()
    .from(voiceCollections)
    .where(and(eq(voiceCollections.id, id), eq(voiceCollections.workspaceId, workspaceId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The workspace's collections by name. */
export async function listCollectionRows(db: Db, workspaceId: string): Promise<CollectionRow[]> {
  return db
    .select()
    .from(voiceCollections)
    .where(eq(voiceCollections.workspaceId, workspaceId))
    .orderBy(voiceCollections.name, voiceCollections.id);
}

export async function insertCollection(
  db: Db,
  row: typeof voiceCollections.$inferInsert,
): Promise<CollectionRow> {
  const [inserted] = await db.insert(voiceCollections).values(row).returning();
  return inserted as CollectionRow;
}

/** Sets these columns of a workspace's collection and returns it. */
export async function updateCollectionRow(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<Pick<CollectionRow, 'name' | 'icon' | 'voiceIds'>>,
): Promise<CollectionRow> {
  const [updated] = await db
    .update(voiceCollections)
    .set(changes)
    .where(and(eq(voiceCollections.id, id), eq(voiceCollections.workspaceId, workspaceId)))
    .returning();
  return updated as CollectionRow;
}

export async function deleteCollectionRow(db: Db, workspaceId: string, id: string): Promise<void> {
  await db
    .delete(voiceCollections)
    .where(and(eq(voiceCollections.id, id), eq(voiceCollections.workspaceId, workspaceId)));
}
