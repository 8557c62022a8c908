import { workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import type { Storage } from '../../platform/storage/storage';
import { deleteWorkspaceDubFiles } from './dubbing.service';

/**
 * A deleted workspace's dub files (its rows went by cascade): right after the commit, and again as a
 * durable job so a crash in between still removes them (as history and transcripts do).
 */
export function subscribeDubbing(bus: EventBus, deps: { storage: Storage }): void {
  bus.on(workspaceDeleted, 'dubbing.workspace-deleted', (event) =>
    deleteWorkspaceDubFiles(deps, event.workspaceId),
  );
  bus.on(
    workspaceDeleted,
    'dubbing.workspace-deleted.durable',
    (event) => deleteWorkspaceDubFiles(deps, event.workspaceId),
    { durable: true },
  );
}
