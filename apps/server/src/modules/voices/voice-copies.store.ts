import { inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { voices } from './voices.tables';

/**
 * The copies other workspaces added of voices that are gone (a deleted workspace's shared voices) stop
 * working (§5 copied_disabled).
 */
export async function disableCopiesOf(db: Db, voiceIds: readonly string[]): Promise<void> {
  if (voiceIds.length === 0) return;
  await db
    .update(voices)
    .set({ sharingStatus: 'copied_disabled' })
    .where(inArray(voices.originalVoiceId, [...voiceIds]));
}
