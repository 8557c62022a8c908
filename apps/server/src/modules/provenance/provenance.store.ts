import type { FingerprintHit } from '@parla/audio';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type GeneratedAudioSource, generatedAudio, generatedAudioLandmarks } from './provenance.tables';

/** Landmark rows per INSERT: three parameters each, well under PostgreSQL's 65,535. */
const INSERT_BATCH = 5000;

export interface GeneratedAudioInsert {
  workspaceId: string | null;
  source: GeneratedAudioSource;
  subject?: string | undefined;
  durationMs: number;
  hashes: Uint32Array;
  frames: Uint32Array;
}

/** Keeps one generated audio and its landmarks, in one transaction; returns its id. */
export async function insertGeneratedAudio(db: Db, row: GeneratedAudioInsert): Promise<number> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(generatedAudio)
      .values({
        workspaceId: row.workspaceId,
        source: row.source,
        subject: row.subject ?? null,
        durationMs: row.durationMs,
      })
      .returning({ id: generatedAudio.id });
    const audioId = inserted?.id as number;
    for (let at = 0; at < row.hashes.length; at += INSERT_BATCH) {
      const values = [];
      for (let i = at; i < Math.min(row.hashes.length, at + INSERT_BATCH); i++)
        values.push({ audioId, hash: row.hashes[i] as number, frame: row.frames[i] as number });
      await tx.insert(generatedAudioLandmarks).values(values);
    }
    return audioId;
  });
}

/** Whether audio of this subject is kept already (a voice's preview made before). */
export async function hasGeneratedSubject(db: Db, subject: string): Promise<boolean> {
  const rows = await db
    .select({ id: generatedAudio.id })
    .from(generatedAudio)
    .where(eq(generatedAudio.subject, subject))
    .limit(1);
  return rows.length > 0;
}

/**
 * Every stored landmark with one of these hashes, of every workspace. The hashes go as one array
 * literal (one parameter, the same on both drivers), however many there are.
 */
export async function findLandmarks(db: Db, hashes: readonly number[]): Promise<FingerprintHit[]> {
  if (hashes.length === 0) return [];
  const rows = await db
    .select({
      audioId: generatedAudioLandmarks.audioId,
      hash: generatedAudioLandmarks.hash,
      frame: generatedAudioLandmarks.frame,
    })
    .from(generatedAudioLandmarks)
    .where(sql`${generatedAudioLandmarks.hash} = any(${`{${hashes.join(',')}}`}::int[])`);
  return rows.map((r) => ({ referenceId: String(r.audioId), hash: r.hash, frame: r.frame }));
}

/** Where these generated audios came from. */
export async function findGeneratedAudio(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: generatedAudio.id,
      workspaceId: generatedAudio.workspaceId,
      source: generatedAudio.source,
      createdAt: generatedAudio.createdAt,
    })
    .from(generatedAudio)
    .where(inArray(generatedAudio.id, [...ids]));
}
