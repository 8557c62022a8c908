import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import type { ShareableKind, SharedResource } from '../../platform/module';
import { voiceNotFound } from './speaking-voice';
import { voices } from './voices.tables';

/** One of the workspace's own voices as sharing reads it, or undefined. */
async function findSharedVoice(db: Db, workspaceId: string, id: string): Promise<SharedResource | undefined> {
  const [row] = await db
    .select({
      id: voices.id,
      workspaceId: voices.workspaceId,
      creatorId: voices.ownerUserId,
      name: voices.name,
    })
    .from(voices)
    .where(and(eq(voices.id, id), eq(voices.workspaceId, workspaceId)));
  return row;
}

/** A workspace's own voices are shared between its members (history/voices §7). */
export const voiceShareable: ShareableKind = {
  kind: 'voice',
  find: findSharedVoice,
  notFound: voiceNotFound,
};
