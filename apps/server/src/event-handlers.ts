import type { Logger } from 'pino';
import { MODULES } from './modules';
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
  for (const module of MODULES) module.subscribe?.(bus, deps);
  return bus;
}
