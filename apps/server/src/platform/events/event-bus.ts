import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '../db/client';
import { defineJob, NonRetryableJobError } from '../jobs/job-definition';
import type { JobQueue } from '../jobs/job-queue';

/*
 * Domain events (issue 17 item 2): a module says what happened in its own words; the modules that care
 * react in theirs, so no module reaches into another to cause a side effect. An event is published inside
 * the transaction that made it true and delivered after that commits, never on a rollback:
 *   - a durable handler (one that must survive a crash: clean-up, anything that must happen) runs as a job
 *     enqueued in the publishing transaction — it exists only if the transaction commits, and a crash
 *     between the commit and the handler runs it again later;
 *   - a light handler (a checklist tick, a message under the bell) runs in this process right after the
 *     commit; its failure is logged and never fails what published it;
 *   - an in-transaction handler (a write that must be true together with the event, e.g. other
 *     workspaces' copies of a deleted workspace's voices stop working) runs inside the publishing
 *     transaction, with its handle; its failure rolls the transaction back.
 * The names are the ones webhooks will send (event-catalog.ts).
 */

/** A typed event: its name and the schema of its payload. */
export interface EventDefinition<P> {
  name: string;
  payload: z.ZodType<P>;
}

/** Declares an event with its payload type preserved. */
export function defineEvent<P>(name: string, payload: z.ZodType<P>): EventDefinition<P> {
  return { name, payload };
}

interface Subscription {
  /** Unique per event: names the handler in the job that delivers it. */
  handler: string;
  mode: 'light' | 'durable' | 'in_transaction';
  handle(payload: unknown, db: Db): Promise<void>;
}

/** What a publisher hands the bus: a database handle (a transaction, or the db itself) and the events. */
export interface EventPublisher {
  publish<P>(event: EventDefinition<P>, payload: P): Promise<void>;
}

/** The job that delivers one event to one durable handler: the worker hands it the process's bus. */
export const deliverEventJob = defineJob({
  name: 'events.deliver',
  payload: z.object({ event: z.string(), handler: z.string(), payload: z.unknown() }),
  maxAttempts: 5,
  backoffBaseMs: 2000,
  handler: async (job, _ctx, bus: EventBus) => {
    await bus.deliverDurable(job.event, job.handler, job.payload);
  },
});

export class EventBus {
  private readonly subscriptions = new Map<string, Subscription[]>();
  private readonly definitions = new Map<string, EventDefinition<unknown>>();

  constructor(
    private readonly options: {
      db: Db;
      queue: JobQueue;
      logger: Logger;
    },
  ) {}

  /**
   * Subscribes `handle` to `event` under a name unique for that event. `durable` handlers run as jobs
   * (after a crash too); `inTransaction` ones inside the publishing transaction (handed its handle); the
   * others right after the commit, in this process.
   */
  on<P>(
    event: EventDefinition<P>,
    handler: string,
    handle: (payload: P, db: Db) => Promise<void>,
    options: { durable?: boolean; inTransaction?: boolean } = {},
  ): void {
    if (options.durable && options.inTransaction)
      throw new Error(`The handler ${handler} cannot be both durable and in the transaction.`);
    const list = this.subscriptions.get(event.name) ?? [];
    if (list.some((s) => s.handler === handler))
      throw new Error(`The event ${event.name} already has a handler named ${handler}.`);
    list.push({
      handler,
      mode: options.durable ? 'durable' : options.inTransaction ? 'in_transaction' : 'light',
      handle: handle as (payload: unknown, db: Db) => Promise<void>,
    });
    this.subscriptions.set(event.name, list);
    this.definitions.set(event.name, event as EventDefinition<unknown>);
  }

  /**
   * Runs `work` in one transaction with a publisher bound to it; light handlers of what it published run
   * once it has committed (nothing runs when it rolls back).
   */
  async transaction<T>(work: (tx: Db, events: EventPublisher) => Promise<T>): Promise<T> {
    const afterCommit: (() => Promise<void>)[] = [];
    const result = await this.options.db.transaction((tx) =>
      work(tx, { publish: (event, payload) => this.stage(tx, event, payload, afterCommit) }),
    );
    this.options.queue.wake();
    await this.runLight(afterCommit);
    return result;
  }

  /**
   * Publishes outside any transaction (what happened is already committed): durable handlers are enqueued,
   * light ones run now.
   */
  async publish<P>(event: EventDefinition<P>, payload: P): Promise<void> {
    const afterCommit: (() => Promise<void>)[] = [];
    await this.stage(this.options.db, event, payload, afterCommit);
    this.options.queue.wake();
    await this.runLight(afterCommit);
  }

  /** Delivers one event to one durable handler (the delivery job). */
  async deliverDurable(eventName: string, handlerName: string, payload: unknown): Promise<void> {
    const subscription = this.subscriptions.get(eventName)?.find((s) => s.handler === handlerName);
    const definition = this.definitions.get(eventName);
    if (!subscription || !definition)
      throw new NonRetryableJobError(`No handler ${handlerName} for the event ${eventName} in this process.`);
    await subscription.handle(definition.payload.parse(payload), this.options.db);
  }

  private async stage<P>(
    db: Db,
    event: EventDefinition<P>,
    payload: P,
    afterCommit: (() => Promise<void>)[],
  ): Promise<void> {
    const data = event.payload.parse(payload);
    for (const subscription of this.subscriptions.get(event.name) ?? []) {
      if (subscription.mode === 'in_transaction') {
        await subscription.handle(data, db);
      } else if (subscription.mode === 'durable') {
        await this.options.queue.enqueueIn(db, deliverEventJob, {
          event: event.name,
          handler: subscription.handler,
          payload: data,
        });
      } else {
        afterCommit.push(async () => {
          try {
            await subscription.handle(data, this.options.db);
          } catch (error) {
            this.options.logger.warn(
              { err: error, event: event.name, handler: subscription.handler },
              'an event handler failed',
            );
          }
        });
      }
    }
  }

  private async runLight(handlers: (() => Promise<void>)[]): Promise<void> {
    for (const handle of handlers) await handle();
  }
}
