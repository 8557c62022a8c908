import type { Db } from '../../platform/db/client';
import { workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import type { Storage } from '../../platform/storage/storage';
import { deleteWorkspaceVoiceFiles } from './voice-files';
import { disableCopiesOfVoices } from './voices.store';

/**
 * After a workspace's deletion (its voice rows went by cascade): the library copies other workspaces made
 * of its voices stop working, and its voices' files go (samples, verification documents, design
 * previews, previews).
 */
async function retireDeletedWorkspaceVoices(
  deps: { db: Db; storage: Storage },
  event: { workspaceId: string; voiceIds: string[] },
): Promise<void> {
  if (event.voiceIds.length > 0) await disableCopiesOfVoices(deps.db, event.voiceIds);
  await deleteWorkspaceVoiceFiles(deps.storage, event.workspaceId, event.voiceIds);
}

/**
 * The clean-up after a workspace's deletion (issue 17: the deleting module publishes, voices cleans up its
 * own). Twice, on purpose: right after the commit, so the deletion answers with the copies disabled and the
 * files gone as it always did; and as a job, so a crash between the commit and that first pass still does
 * it. Both steps are idempotent.
 */
export function subscribeVoices(bus: EventBus, deps: { db: Db; storage: Storage }): void {
  bus.on(workspaceDeleted, 'voices.workspace-deleted', (event) => retireDeletedWorkspaceVoices(deps, event));
  bus.on(
    workspaceDeleted,
    'voices.workspace-deleted.durable',
    (event) => retireDeletedWorkspaceVoices(deps, event),
    { durable: true },
  );
}
