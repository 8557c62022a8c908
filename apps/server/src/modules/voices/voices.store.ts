import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import type { SharedResource } from '../../platform/module';
import { holdsRole, type ResourceCaller } from '../workspaces';
import { workspaces } from '../workspaces/workspaces.tables';
import {
  type VoiceRow,
  type VoiceSampleRow,
  voiceAddEditCounts,
  voiceSamples,
  voices,
} from './voices.tables';

/** The columns an own voice is written with. */
export type NewVoiceRow = typeof voices.$inferInsert;

/** The voice columns the workspace sharing rule reads (modules/workspaces/sharing.store). */
export const voiceColumns = { id: voices.id, workspaceId: voices.workspaceId, creatorId: voices.ownerUserId };

/**
 * One of the workspace's own voices that the caller may use (made by them or shared with them), or
 * undefined — another workspace's voice, or a member's voice not shared, is not there.
 */
export async function findOwnVoice(
  db: Db,
  caller: ResourceCaller,
  voiceId: string,
): Promise<VoiceRow | undefined> {
  if (voiceId.length > 100) return undefined;
  const [row] = await db
    .select()
    .from(voices)
    .where(and(eq(voices.id, voiceId), holdsRole('voice', voiceColumns, caller)));
  return row;
}

/** An own voice by its id alone, whichever workspace it is in (a public preview). */
export async function findVoiceById(db: Db, voiceId: string): Promise<VoiceRow | undefined> {
  const [row] = await db.select().from(voices).where(eq(voices.id, voiceId));
  return row;
}

/** An own voice of a workspace by id, whoever made it (the server's own jobs). */
export async function findWorkspaceVoice(
  db: Db,
  workspaceId: string,
  voiceId: string,
): Promise<VoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(voices)
    .where(and(eq(voices.id, voiceId), eq(voices.workspaceId, workspaceId)));
  return row;
}

/** The workspace's own voices the caller may use, newest first. */
export async function listOwnVoiceRows(db: Db, caller: ResourceCaller): Promise<VoiceRow[]> {
  return db
    .select()
    .from(voices)
    .where(holdsRole('voice', voiceColumns, caller))
    .orderBy(sql`${voices.createdAt} desc`, voices.id);
}

/** The samples of these voices, oldest first. */
export async function listSamplesOfVoices(db: Db, voiceIds: readonly string[]): Promise<VoiceSampleRow[]> {
  if (voiceIds.length === 0) return [];
  return db
    .select()
    .from(voiceSamples)
    .where(inArray(voiceSamples.voiceId, [...voiceIds]))
    .orderBy(asc(voiceSamples.createdAt));
}

/** The samples of one voice, oldest first. */
export async function listSamples(db: Db, voiceId: string): Promise<VoiceSampleRow[]> {
  return db
    .select()
    .from(voiceSamples)
    .where(eq(voiceSamples.voiceId, voiceId))
    .orderBy(asc(voiceSamples.createdAt));
}

/** The samples of one voice, in the database's order (training reads them all). */
export async function listSamplesUnordered(db: Db, voiceId: string): Promise<VoiceSampleRow[]> {
  return db.select().from(voiceSamples).where(eq(voiceSamples.voiceId, voiceId));
}

/** One sample of a workspace's voice, or undefined. */
export async function findSample(
  db: Db,
  workspaceId: string,
  voiceId: string,
  sampleId: string,
): Promise<VoiceSampleRow | undefined> {
  if (sampleId.length > 100) return undefined;
  const [sample] = await db
    .select()
    .from(voiceSamples)
    .where(
      and(
        eq(voiceSamples.id, sampleId),
        eq(voiceSamples.voiceId, voiceId),
        eq(voiceSamples.workspaceId, workspaceId),
      ),
    );
  return sample;
}

/** One sample of a workspace by id, whichever voice it belongs to (the server's own jobs). */
export async function findWorkspaceSample(
  db: Db,
  workspaceId: string,
  sampleId: string,
): Promise<VoiceSampleRow | undefined> {
  const [sample] = await db
    .select()
    .from(voiceSamples)
    .where(and(eq(voiceSamples.id, sampleId), eq(voiceSamples.workspaceId, workspaceId)));
  return sample;
}

export async function insertVoice(db: Db, row: NewVoiceRow): Promise<void> {
  await db.insert(voices).values(row);
}

export async function insertSamples(db: Db, rows: readonly VoiceSampleRow[]): Promise<void> {
  await db.insert(voiceSamples).values([...rows]);
}

/** Sets these columns of an own voice. */
export async function updateVoice(db: Db, voiceId: string, changes: Partial<NewVoiceRow>): Promise<void> {
  await db.update(voices).set(changes).where(eq(voices.id, voiceId));
}

/** Sets these columns of a sample. */
export async function updateSample(
  db: Db,
  sampleId: string,
  changes: Partial<typeof voiceSamples.$inferInsert>,
): Promise<void> {
  await db.update(voiceSamples).set(changes).where(eq(voiceSamples.id, sampleId));
}

export async function deleteVoiceRow(db: Db, voiceId: string): Promise<void> {
  await db.delete(voices).where(eq(voices.id, voiceId));
}

export async function deleteSampleRow(db: Db, sampleId: string): Promise<void> {
  await db.delete(voiceSamples).where(eq(voiceSamples.id, sampleId));
}

/** Sets the sharing status of the copies other workspaces added of a voice from the library. */
export async function setCopiesStatus(
  db: Db,
  originalVoiceId: string,
  status: 'copied' | 'copied_disabled',
): Promise<void> {
  await db.update(voices).set({ sharingStatus: status }).where(eq(voices.originalVoiceId, originalVoiceId));
}

/** The copies of these voices stop working (§5 copied_disabled). */
export async function disableCopiesOfVoices(db: Db, voiceIds: readonly string[]): Promise<void> {
  await db
    .update(voices)
    .set({ sharingStatus: 'copied_disabled' })
    .where(inArray(voices.originalVoiceId, [...voiceIds]));
}

/**
 * A workspace's plan and its count of voice adds and edits this period. To count one more, take the
 * workspace's lock first (lockWorkspace) and read this after it, in a statement of its own.
 */
export async function readVoiceAllowance(db: Db, workspaceId: string) {
  const query = db
    .select({ tier: workspaces.tier, edits: sql<number>`coalesce(${voiceAddEditCounts.count}, 0)` })
    .from(workspaces)
    .leftJoin(voiceAddEditCounts, eq(voiceAddEditCounts.workspaceId, workspaces.id))
    .where(eq(workspaces.id, workspaceId));
  const [workspace] = await query;
  return workspace;
}

/** One more voice add or edit counted for the period. */
export async function countVoiceAddEdit(db: Db, workspaceId: string): Promise<void> {
  await db
    .insert(voiceAddEditCounts)
    .values({ workspaceId, count: 1 })
    .onConflictDoUpdate({
      target: voiceAddEditCounts.workspaceId,
      set: { count: sql`${voiceAddEditCounts.count} + 1` },
    });
}

/** A new credit period: the count of voice adds and edits starts from 0. */
export async function resetVoiceAddEdits(db: Db, workspaceId: string): Promise<void> {
  await db.delete(voiceAddEditCounts).where(eq(voiceAddEditCounts.workspaceId, workspaceId));
}

/** A workspace's own voices (voice_slots_used), its professional clones, and its adds and edits this period. */
export async function voiceUsageRow(db: Db, workspaceId: string) {
  const [row] = await db
    .select({
      used: sql<number>`count(*)::int`,
      professional: sql<number>`(count(*) filter (where ${voices.category} = 'professional'))::int`,
    })
    .from(voices)
    .where(eq(voices.workspaceId, workspaceId));
  const [edits] = await db
    .select({ count: voiceAddEditCounts.count })
    .from(voiceAddEditCounts)
    .where(eq(voiceAddEditCounts.workspaceId, workspaceId));
  return { used: row?.used ?? 0, professional: row?.professional ?? 0, addEdits: edits?.count ?? 0 };
}

/** The ids of a workspace's own voices (read before it is deleted: the rows go by cascade). */
export async function workspaceVoiceIdsOf(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db.select({ id: voices.id }).from(voices).where(eq(voices.workspaceId, workspaceId));
  return rows.map((row) => row.id);
}

/** A workspace's plan, or undefined when it is gone. */
export async function workspaceTier(db: Db, workspaceId: string) {
  const [workspace] = await db
    .select({ tier: workspaces.tier })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return workspace?.tier;
}

/** How many own voices a workspace has (of one category when given). */
export async function countWorkspaceVoices(
  db: Db,
  workspaceId: string,
  category?: VoiceRow['category'],
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(voices)
    .where(
      category === undefined
        ? eq(voices.workspaceId, workspaceId)
        : and(eq(voices.workspaceId, workspaceId), eq(voices.category, category)),
    );
  return row?.n ?? 0;
}

/** One of the workspace's own voices as sharing reads it, or undefined. */
export async function findSharedVoice(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<SharedResource | undefined> {
  const [row] = await db
    .select({
      id: voices.id,
      workspaceId: voices.workspaceId,
      creatorId: voices.ownerUserId,
      name: voices.name,
    })
    .from(voices)
    .where(and(eq(voices.id, id), eq(voices.workspaceId, workspaceId)));
  return row && { ...row, workspaceId };
}
