import type { Logger } from 'pino';
import { subscribeNotifications } from './modules/notifications/notifications.events';
import { subscribeOnboarding } from './modules/onboarding/onboarding.events';
import type { Clock } from './platform/clock';
import type { Db } from './platform/db/client';
import { EventBus } from './platform/events/event-bus';
import type { JobQueue } from './platform/jobs/job-queue';

/**
 * The event bus of this process with every module's handlers subscribed (in every role: light handlers
 * run where the event is published, durable ones in the worker that takes their job).
 */
export function createEventBus(deps: { db: Db; queue: JobQueue; logger: Logger; clock: Clock }): EventBus {
  const bus = new EventBus(deps);
  subscribeNotifications(bus, deps);
  subscribeOnboarding(bus, deps);
  return bus;
}
