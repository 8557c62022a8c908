import { workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import type { Storage } from '../../platform/storage/storage';

/**
 * A deleted workspace's design previews (their rows go by cascade): their audio goes right after the
 * commit, and again as a job in case a crash came between (deleting is idempotent).
 */
export function subscribeVoiceDesign(bus: EventBus, deps: { storage: Storage }): void {
  const deleteFiles = async (event: { workspaceId: string }) => {
    for (const key of await deps.storage.list(`voice-design/${event.workspaceId}/`))
      await deps.storage.delete(key);
  };
  bus.on(workspaceDeleted, 'voice-design.workspace-deleted', deleteFiles);
  bus.on(workspaceDeleted, 'voice-design.workspace-deleted.durable', deleteFiles, { durable: true });
}
