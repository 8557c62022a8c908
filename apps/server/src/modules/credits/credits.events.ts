import { creditPeriodStarted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { resetBalance } from './credits.store';

/** A new credit period (billing): the balance starts from 0 in the same transaction. */
export function subscribeCredits(bus: EventBus): void {
  bus.on(
    creditPeriodStarted,
    'credits.period-started',
    (event, tx) => resetBalance(tx, event.workspaceId, new Date(event.atUnixMs)),
    { inTransaction: true },
  );
}
