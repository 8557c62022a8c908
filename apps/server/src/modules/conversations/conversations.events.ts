import type { Db } from '../../platform/db/client';
import { creditPeriodStarted, workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import type { Storage } from '../../platform/storage/storage';
import { resetMinutes } from './conversations.store';

/** accounts §9: conversation minutes are counted per credit period; a deleted workspace's recordings go. */
export function subscribeConversations(bus: EventBus, deps: { storage: Storage }): void {
  bus.on(
    creditPeriodStarted,
    'conversations.period-started',
    (event, tx: Db) => resetMinutes(tx, event.workspaceId),
    { inTransaction: true },
  );
  const deleteRecordings = async (event: { workspaceId: string }) => {
    for (const key of await deps.storage.list(`conversations/${event.workspaceId}/`))
      await deps.storage.delete(key);
  };
  bus.on(workspaceDeleted, 'conversations.workspace-deleted', deleteRecordings);
  bus.on(workspaceDeleted, 'conversations.workspace-deleted.durable', deleteRecordings, { durable: true });
}
