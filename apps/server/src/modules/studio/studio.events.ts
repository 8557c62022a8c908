import { workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import type { Storage } from '../../platform/storage/storage';
import { removeFiles } from './studio.service';

/** Every Studio file of a workspace (its projects' block audio and snapshots). */
export const workspaceStudioFolder = (workspaceId: string) => `studio/${workspaceId}/`;

/**
 * A deleted workspace's Studio files (its rows went by cascade): right after the commit, and again as a
 * durable job so a crash in between still removes them (as dubbing, history and transcripts do).
 */
export function subscribeStudio(bus: EventBus, deps: { storage: Storage }): void {
  bus.on(workspaceDeleted, 'studio.workspace-deleted', (event) =>
    removeFiles(deps, workspaceStudioFolder(event.workspaceId)),
  );
  bus.on(
    workspaceDeleted,
    'studio.workspace-deleted.durable',
    (event) => removeFiles(deps, workspaceStudioFolder(event.workspaceId)),
    { durable: true },
  );
}
