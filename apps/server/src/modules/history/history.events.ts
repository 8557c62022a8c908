import { workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import type { Storage } from '../../platform/storage/storage';
import { deleteWorkspaceHistoryAudio } from './history.files';
import { deleteWorkspaceShareVideos } from './share-video.files';

/** A deleted workspace's files: its history items' audio and its share videos (their rows went by cascade). */
async function removeWorkspaceFiles(storage: Storage, workspaceId: string): Promise<void> {
  await deleteWorkspaceHistoryAudio(storage, workspaceId);
  await deleteWorkspaceShareVideos(storage, workspaceId);
}

/**
 * The clean-up after a workspace's deletion (issue 17: the deleting module publishes, history removes its
 * own files). Twice, on purpose: right after the commit, so the deletion answers with the files gone as it
 * always did; and as a job, so a crash between the commit and that first pass still removes them. Removing
 * what is already gone is a no-op.
 */
export function subscribeHistory(bus: EventBus, deps: { storage: Storage }): void {
  bus.on(workspaceDeleted, 'history.workspace-deleted', (event) =>
    removeWorkspaceFiles(deps.storage, event.workspaceId),
  );
  bus.on(
    workspaceDeleted,
    'history.workspace-deleted.durable',
    (event) => removeWorkspaceFiles(deps.storage, event.workspaceId),
    { durable: true },
  );
}
