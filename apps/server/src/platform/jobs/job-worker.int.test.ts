import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase } from '../../test/test-app';
import type { Database } from '../db/client';
import { newId } from '../ids';
import { defineJob, type JobDefinition, NonRetryableJobError } from './job-definition';
import { JobQueue } from './job-queue';
import { JobWorker } from './job-worker';
import { jobs } from './jobs.tables';

let database: Database;
let queue: JobQueue;
const workers: JobWorker[] = [];
beforeAll(async () => {
  database = await openTestDatabase();
  queue = new JobQueue(database.db);
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop(1000)));
});
afterAll(() => database.close());

/** A worker for these tests; each test uses job names of its own so workers never take another's jobs. */
async function startWorker(
  definitions: JobDefinition<never>[] | JobDefinition[],
  concurrency = 2,
): Promise<JobWorker> {
  const worker = new JobWorker({
    db: database.db,
    definitions: definitions as JobDefinition[],
    concurrency,
    leaseSeconds: 5,
    pollIntervalMs: 50,
    logger: pino({ level: 'silent' }),
    exclusiveDatabase: false,
  });
  await worker.start();
  workers.push(worker);
  return worker;
}

const settled = (id: string) =>
  expect.poll(async () => (await queue.getJob(id))?.state, { timeout: 20_000, interval: 50 });

describe('job worker', () => {
  it('runs a job, stores its progress and result, and settles it as completed', async () => {
    const seen: number[] = [];
    const job = defineJob({
      name: `test.progress.${newId(6)}`,
      payload: z.object({ steps: z.number() }),
      handler: async ({ steps }, ctx) => {
        for (let i = 1; i <= steps; i++) {
          await ctx.progress(i / steps);
          seen.push((await queue.getJob(ctx.jobId))?.progress ?? -1);
        }
        return { steps };
      },
    });
    await startWorker([job]);
    const id = await queue.enqueue(job, { steps: 4 });
    await settled(id).toBe('completed');
    expect(seen).toEqual([0.25, 0.5, 0.75, 1]);
    expect(await queue.getJob(id)).toMatchObject({
      progress: 1,
      attempts: 1,
      result: { steps: 4 },
      lockToken: null,
    });
  });

  it('never lowers the progress shown when another attempt takes the job over (issue 26 item 9)', async () => {
    let firstReported: () => void = () => undefined;
    const reported = new Promise<void>((resolve) => {
      firstReported = resolve;
    });
    const seen: number[] = [];
    const job = defineJob({
      name: `test.takeover.${newId(6)}`,
      payload: z.object({}),
      handler: async (_p, ctx) => {
        if (ctx.attempt === 1) {
          await ctx.progress(0.485);
          firstReported();
          // Stalled until its lease is found taken over (or the worker stops).
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
          return;
        }
        await ctx.progress(0.277);
        seen.push((await queue.getJob(ctx.jobId))?.progress ?? -1);
        await ctx.progress(0.6);
        seen.push((await queue.getJob(ctx.jobId))?.progress ?? -1);
      },
    });
    await startWorker([job]);
    const id = await queue.enqueue(job, {});
    await reported;
    // The first attempt's lease runs out: the next poll takes the job over as attempt 2.
    await database.db
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, id));
    await settled(id).toBe('completed');
    expect(seen).toEqual([0.485, 0.6]);
    expect(await queue.getJob(id)).toMatchObject({ attempts: 2, progress: 1 });
  });

  it('retries a failing job with growing delays, then succeeds', async () => {
    const runs: number[] = [];
    const job = defineJob({
      name: `test.retry.${newId(6)}`,
      payload: z.object({}),
      maxAttempts: 3,
      backoffBaseMs: 300,
      handler: async (_p, ctx) => {
        runs.push(Date.now());
        if (ctx.attempt < 3) throw new Error(`flaky ${ctx.attempt}`);
        return 'ok';
      },
    });
    await startWorker([job]);
    const id = await queue.enqueue(job, {});
    await settled(id).toBe('completed');
    expect(runs).toHaveLength(3);
    const [a = 0, b = 0, c = 0] = runs;
    expect(b - a).toBeGreaterThanOrEqual(250); // 300 ms after the first failure
    expect(c - b).toBeGreaterThanOrEqual(550); // 600 ms after the second
    expect(await queue.getJob(id)).toMatchObject({ attempts: 3, lastError: 'flaky 2' });
  });

  it('fails a job for good once its attempts are used up', async () => {
    const job = defineJob({
      name: `test.exhaust.${newId(6)}`,
      payload: z.object({}),
      maxAttempts: 2,
      backoffBaseMs: 50,
      handler: async () => {
        throw new Error('always broken');
      },
    });
    await startWorker([job]);
    const id = await queue.enqueue(job, {});
    await settled(id).toBe('failed');
    expect(await queue.getJob(id)).toMatchObject({ attempts: 2, lastError: 'always broken' });
  });

  it('tells the job’s owner once it failed for good: last attempt, non-retryable, or its worker died on the last', async () => {
    const told: { payload: unknown; error: string; state: string | undefined }[] = [];
    const job = defineJob({
      name: `test.exhausted.${newId(6)}`,
      payload: z.object({ n: z.number() }),
      maxAttempts: 2,
      backoffBaseMs: 50,
      handler: async ({ n }) => {
        throw n < 0 ? new NonRetryableJobError('negative input') : new Error('always broken');
      },
      onExhausted: async (payload, failure) => {
        told.push({ payload, error: failure.error, state: (await queue.getJob(failure.jobId))?.state });
      },
    });
    await startWorker([job]);
    const broken = await queue.enqueue(job, { n: 1 });
    const permanent = await queue.enqueue(job, { n: -1 });
    await settled(broken).toBe('failed');
    await settled(permanent).toBe('failed');
    // A run whose worker died during its last attempt (the lease ran out): failed, and its owner told.
    const orphan = newId();
    await database.db.insert(jobs).values({
      id: orphan,
      name: job.name,
      payload: { n: 7 },
      state: 'active',
      attempts: 2,
      maxAttempts: 2,
      lockToken: 'dead',
      lockedUntil: sql`now() - interval '1 second'`,
    });
    await settled(orphan).toBe('failed');
    await expect.poll(() => told.length, { timeout: 5000, interval: 50 }).toBe(3);
    expect(told).toEqual(
      expect.arrayContaining([
        { payload: { n: 1 }, error: 'always broken', state: 'failed' },
        { payload: { n: -1 }, error: 'negative input', state: 'failed' },
        {
          payload: { n: 7 },
          error: 'The worker running this job stopped before it finished.',
          state: 'failed',
        },
      ]),
    );
  });

  it('does not retry a NonRetryableJobError or a payload that no longer fits its schema', async () => {
    const job = defineJob({
      name: `test.permanent.${newId(6)}`,
      payload: z.object({ n: z.number() }),
      maxAttempts: 5,
      handler: async ({ n }) => {
        if (n < 0) throw new NonRetryableJobError('negative input');
      },
    });
    await startWorker([job]);
    const id = await queue.enqueue(job, { n: -1 });
    await settled(id).toBe('failed');
    expect(await queue.getJob(id)).toMatchObject({ attempts: 1, lastError: 'negative input' });

    const badId = newId();
    await database.db
      .insert(jobs)
      .values({ id: badId, name: job.name, payload: { n: 'text' }, maxAttempts: 5 });
    await settled(badId).toBe('failed');
    expect((await queue.getJob(badId))?.lastError).toMatch(/^Invalid payload/);
  });

  it('rejects an invalid payload at enqueue time and stores nothing', async () => {
    const job = defineJob({
      name: `test.invalid.${newId(6)}`,
      payload: z.object({ n: z.number() }),
      handler: async () => {},
    });
    await expect(queue.enqueue(job, { n: 'x' } as unknown as { n: number })).rejects.toThrow();
    expect(await database.db.select().from(jobs).where(eq(jobs.name, job.name))).toEqual([]);
  });

  it('returns the first job for a repeated singleton key', async () => {
    const job = defineJob({
      name: `test.singleton.${newId(6)}`,
      payload: z.object({}),
      handler: async () => {},
    });
    const key = newId();
    const first = await queue.enqueue(job, {}, { singletonKey: key });
    expect(await queue.enqueue(job, {}, { singletonKey: key })).toBe(first);
  });

  it('runs each of many jobs exactly once across competing workers (SKIP LOCKED)', async () => {
    const counts = new Map<number, number>();
    const job = defineJob({
      name: `test.compete.${newId(6)}`,
      payload: z.object({ i: z.number() }),
      handler: async ({ i }) => {
        counts.set(i, (counts.get(i) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 5));
      },
    });
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => queue.enqueue(job, { i })));
    await Promise.all([startWorker([job], 3), startWorker([job], 3), startWorker([job], 3)]);
    for (const id of ids) await settled(id).toBe('completed');
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('on stop, puts an unfinished job back without spending an attempt', async () => {
    const job = defineJob({
      name: `test.stop.${newId(6)}`,
      payload: z.object({}),
      handler: (_p, ctx) =>
        new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
    });
    const worker = await startWorker([job]);
    const id = await queue.enqueue(job, {});
    await settled(id).toBe('active');
    await worker.stop(100);
    expect(await queue.getJob(id)).toMatchObject({ state: 'queued', attempts: 0, lockToken: null });
  });
});
