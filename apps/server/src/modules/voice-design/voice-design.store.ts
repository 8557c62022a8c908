import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { generatedVoices } from './voice-design.tables';

export type GeneratedVoiceRow = typeof generatedVoices.$inferSelect;

export async function insertGeneratedVoice(db: Db, row: typeof generatedVoices.$inferInsert): Promise<void> {
  await db.insert(generatedVoices).values(row);
}

/** Deletes the workspace's previews made before `before` and returns their audio keys. */
export async function deleteGeneratedVoicesBefore(
  db: Db,
  workspaceId: string,
  before: Date,
): Promise<string[]> {
  const expired = await db
    .delete(generatedVoices)
    .where(and(eq(generatedVoices.workspaceId, workspaceId), lt(generatedVoices.createdAt, before)))
    .returning({ audioKey: generatedVoices.audioKey });
  return expired.map((row) => row.audioKey);
}

/** A preview of the workspace made after `since`, or undefined. */
export async function findGeneratedVoice(
  db: Db,
  workspaceId: string,
  id: string,
  since: Date,
): Promise<GeneratedVoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(generatedVoices)
    .where(
      and(
        eq(generatedVoices.id, id),
        eq(generatedVoices.workspaceId, workspaceId),
        gt(generatedVoices.createdAt, since),
      ),
    );
  return row;
}
