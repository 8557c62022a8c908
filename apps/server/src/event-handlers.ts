import { MODULES } from './modules';
import { EventBus } from './platform/events/event-bus';
import type { EventHandlerDeps } from './platform/module';

/**
 * The event bus of this process with every module's handlers subscribed (in every role: light handlers
 * run where the event is published, durable ones in the worker that takes their job).
 */
export function createEventBus(deps: EventHandlerDeps): EventBus {
  const bus = new EventBus(deps);
  for (const module of MODULES) module.subscribe?.(bus, deps);
  return bus;
}
