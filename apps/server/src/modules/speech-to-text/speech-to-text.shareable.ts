import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import type { ShareableKind, SharedResource } from '../../platform/module';
import { getTranscript } from './speech-to-text.store';

/** A transcript of the workspace as sharing reads it (named by its name), or undefined. */
async function findSharedTranscript(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<SharedResource | undefined> {
  const row = await getTranscript(db, workspaceId, id);
  if (!row) return undefined;
  return { id: row.id, workspaceId: row.workspaceId, creatorId: row.userId, name: row.name };
}

/** Transcripts are shared between a workspace's members like voices and history items (history/voices §7). */
export const transcriptShareable: ShareableKind = {
  kind: 'transcript',
  find: findSharedTranscript,
  notFound: (id) => new AppError('resource_not_found', `Transcript ${id} not found.`),
};
