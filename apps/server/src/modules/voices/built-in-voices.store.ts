import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import type { NewVoiceRow } from './voices.store';
import { voices } from './voices.tables';

/** The built-in voices as seeded: id, definition hash and whether the library lists them. */
export async function listBuiltInVoiceStates(
  db: Db,
): Promise<{ id: string; hash: string | null; sharingStatus: string | null }[]> {
  return db
    .select({ id: voices.id, hash: voices.builtInHash, sharingStatus: voices.sharingStatus })
    .from(voices)
    .where(eq(voices.builtIn, true));
}

/** New built-in voices; one another process inserted at the same moment is left as it is. */
export async function insertBuiltInVoices(db: Db, rows: readonly NewVoiceRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(voices)
    .values([...rows])
    .onConflictDoNothing({ target: voices.id });
}

/** A built-in voice rewritten from its changed definition (never a workspace's voice). */
export async function updateBuiltInVoice(db: Db, id: string, changes: Partial<NewVoiceRow>): Promise<void> {
  await db
    .update(voices)
    .set(changes)
    .where(and(eq(voices.id, id), eq(voices.builtIn, true)));
}

/** Built-in voices whose definition is gone leave the library (copies made of them keep working). */
export async function retireBuiltInVoices(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(voices)
    .set({ sharingStatus: 'disabled' })
    .where(and(inArray(voices.id, [...ids]), eq(voices.builtIn, true), ne(voices.sharingStatus, 'disabled')));
}
