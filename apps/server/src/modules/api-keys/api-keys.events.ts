import { workspaceMemberRemoved } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { disableKeysOfFormerMember } from './api-keys.service';

/** A member removed from a workspace: their keys for it stop working in that same transaction. */
export function subscribeApiKeys(bus: EventBus): void {
  bus.on(
    workspaceMemberRemoved,
    'api-keys.member-removed',
    (event, tx) => disableKeysOfFormerMember(tx, event.workspaceId, event.userId, new Date(event.atUnixMs)),
    { inTransaction: true },
  );
}
