import { workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import type { Storage } from '../../platform/storage/storage';
import { deleteWorkspaceTranscriptFiles } from './speech-to-text.service';

/**
 * A deleted workspace's transcript files (its rows went by cascade): right after the commit, and again
 * as a job so a crash in between still removes them (as history does).
 */
export function subscribeSpeechToText(bus: EventBus, deps: { storage: Storage }): void {
  bus.on(workspaceDeleted, 'speech-to-text.workspace-deleted', (event) =>
    deleteWorkspaceTranscriptFiles(deps.storage, event.workspaceId),
  );
  bus.on(
    workspaceDeleted,
    'speech-to-text.workspace-deleted.durable',
    (event) => deleteWorkspaceTranscriptFiles(deps.storage, event.workspaceId),
    { durable: true },
  );
}
