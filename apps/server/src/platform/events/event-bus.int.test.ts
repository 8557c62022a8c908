import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase } from '../../test/test-app';
import type { Database } from '../db/client';
import { newId } from '../ids';
import { bindJob } from '../jobs/job-definition';
import { JobQueue } from '../jobs/job-queue';
import { JobWorker } from '../jobs/job-worker';
import { jobs } from '../jobs/jobs.tables';
import { defineEvent, deliverEventJob, EventBus } from './event-bus';

/*
 * The event bus (issue 17 item 2) on the real database: light handlers run after the commit and never on
 * a rollback; in-transaction handlers write with the publisher and roll back with it; durable handlers are jobs enqueued in the publishing transaction — none on a rollback, and
 * one that a crash interrupted (or that failed) runs again.
 */

let database: Database;
const logger = pino({ level: 'silent' });
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const happened = defineEvent('test.happened', z.object({ id: z.string() }));

function bus() {
  const queue = new JobQueue(database.db);
  return { queue, bus: new EventBus({ db: database.db, queue, logger }) };
}

/** A worker that delivers the events of `events` (and runs nothing else). */
const deliveryWorker = (events: EventBus) =>
  new JobWorker({
    db: database.db,
    definitions: [bindJob(deliverEventJob, events)],
    concurrency: 1,
    leaseSeconds: 5,
    pollIntervalMs: 50,
    logger,
    exclusiveDatabase: false,
  });

/** The delivery jobs of one event's payload. */
async function deliveries(id: string) {
  const rows = await database.db.select().from(jobs).where(eq(jobs.name, deliverEventJob.name));
  return rows.filter((row) => (row.payload as { payload: { id: string } }).payload.id === id);
}

describe('domain events', () => {
  it('a light handler runs after the commit, seeing what the transaction wrote, and never on a rollback', async () => {
    const { bus: events } = bus();
    const seen: string[] = [];
    events.on(happened, 'test.light', async ({ id }) => {
      // The transaction has committed: another connection sees its row.
      const rows = await database.db.select().from(jobs).where(eq(jobs.id, id));
      seen.push(`${id}:${rows.length}`);
    });
    const committed = newId();
    await events.transaction(async (tx, publish) => {
      await tx
        .insert(jobs)
        .values({ id: committed, name: 'test.marker', payload: {}, maxAttempts: 1, backoffBaseMs: 1 });
      await publish.publish(happened, { id: committed });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([`${committed}:1`]);
    const rolledBack = newId();
    await expect(
      events.transaction(async (_tx, publish) => {
        await publish.publish(happened, { id: rolledBack });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(seen).toEqual([`${committed}:1`]);
  });

  it('an in-transaction handler writes with the publishing transaction: its failure rolls it back', async () => {
    const { bus: events } = bus();
    events.on(
      happened,
      'test.in-transaction',
      async ({ id }, tx) => {
        if (id.startsWith('fail')) throw new Error('handler refused');
        await tx
          .insert(jobs)
          .values({ id, name: 'test.marker', payload: {}, maxAttempts: 1, backoffBaseMs: 1 });
      },
      { inTransaction: true },
    );
    const written = newId();
    await events.transaction(async (tx, publish) => {
      await publish.publish(happened, { id: written });
      // Written already, in this transaction.
      expect(await tx.select().from(jobs).where(eq(jobs.id, written))).toHaveLength(1);
    });
    expect(await database.db.select().from(jobs).where(eq(jobs.id, written))).toHaveLength(1);
    const kept = newId();
    await expect(
      events.transaction(async (tx, publish) => {
        await tx
          .insert(jobs)
          .values({ id: kept, name: 'test.marker', payload: {}, maxAttempts: 1, backoffBaseMs: 1 });
        await publish.publish(happened, { id: `fail-${newId()}` });
      }),
    ).rejects.toThrow('handler refused');
    expect(await database.db.select().from(jobs).where(eq(jobs.id, kept))).toEqual([]);
  });

  it('a light handler’s failure is logged, never the publisher’s', async () => {
    const { bus: events } = bus();
    events.on(happened, 'test.failing', async () => {
      throw new Error('handler failed');
    });
    await expect(events.publish(happened, { id: newId() })).resolves.toBeUndefined();
  });

  it('a durable handler is a job of the transaction: none on a rollback, run once after the commit', async () => {
    const { bus: events, queue } = bus();
    const ran: string[] = [];
    events.on(happened, 'test.durable', async ({ id }) => void ran.push(id), { durable: true });
    const rolledBack = newId();
    await events
      .transaction(async (_tx, publish) => {
        await publish.publish(happened, { id: rolledBack });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await deliveries(rolledBack)).toEqual([]);
    const committed = newId();
    await events.transaction((_tx, publish) => publish.publish(happened, { id: committed }));
    expect(await deliveries(committed)).toHaveLength(1);
    expect(ran).toEqual([]);
    const worker = deliveryWorker(events);
    queue.onEnqueued = () => worker.wake();
    await worker.start();
    try {
      await expect.poll(() => ran, { timeout: 10_000 }).toContain(committed);
      await expect
        .poll(async () => (await deliveries(committed))[0]?.state, { timeout: 10_000 })
        .toBe('completed');
    } finally {
      await worker.stop(1000);
    }
  });

  it('a durable delivery that a crash interrupted or that failed runs again in a new process', async () => {
    // The first process published and died before its handler ran: a new bus (a new process) subscribes
    // the same handler and its worker delivers the job; a failing first attempt is retried.
    const first = bus();
    first.bus.on(happened, 'test.retried', async () => undefined, { durable: true });
    const id = newId();
    await first.bus.publish(happened, { id });
    const second = bus();
    let attempts = 0;
    second.bus.on(
      happened,
      'test.retried',
      async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('the first attempt fails');
      },
      { durable: true },
    );
    await database.db
      .update(jobs)
      .set({ backoffBaseMs: 1 })
      .where(eq(jobs.id, (await deliveries(id))[0]?.id ?? ''));
    const worker = deliveryWorker(second.bus);
    await worker.start();
    try {
      await expect.poll(async () => (await deliveries(id))[0]?.state, { timeout: 15_000 }).toBe('completed');
      expect(attempts).toBe(2);
    } finally {
      await worker.stop(1000);
    }
  });
});
