import { SHAREABLE_RESOURCE_TYPES } from '@parla/contracts';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { AppDeps } from './app-deps';
import { loadConfig } from './config';
import { jobSchedules, MODULES, SHAREABLE_KINDS, workerJobs } from './modules';
import { AppError } from './platform/errors';
import type { JobQueue } from './platform/jobs/job-queue';
import { type ScheduledJob, startSchedules } from './platform/jobs/job-schedules';
import { defineModule, type ShareableKind, shareableKindsOf } from './platform/module';

describe('shareable kinds', () => {
  it('has one module for every resource type the contracts let members share', () => {
    expect([...SHAREABLE_KINDS.keys()].sort()).toEqual([...SHAREABLE_RESOURCE_TYPES].sort());
    const owners = MODULES.filter((m) => (m.shareable ?? []).length > 0).map((m) => m.name);
    expect(owners.sort()).toEqual(['history', 'speech-to-text', 'voices']);
  });

  it('refuses two modules declaring the same kind', () => {
    const kind: ShareableKind = {
      kind: 'voice',
      find: async () => undefined,
      notFound: (id) => new AppError('voice_not_found', id),
    };
    const one = defineModule({ name: 'one', shareable: [kind] });
    const two = defineModule({ name: 'two', shareable: [kind] });
    expect(() => shareableKindsOf([one, two])).toThrow(/two modules declare the shareable kind voice/);
  });
});

describe('jobs wired by the worker (issue 26 item 2)', () => {
  /** An app whose parts are tokens: each job's dependencies must be built from them alone. */
  const app = {
    database: { db: 'the-db' },
    storage: 'the-storage',
    events: 'the-bus',
    queue: 'the-queue',
    clock: 'the-clock',
    logger: 'the-logger',
    leases: 'the-leases',
    providers: {
      stt: 'the-stt',
      denoise: 'the-denoise',
      billing: 'the-billing-provider',
      llm: { embeddings: 'the-embeddings' },
    },
    config: loadConfig({ NODE_ENV: 'test', BILLING_RENEWAL_INTERVAL_MS: '12345' }, []),
  } as unknown as AppDeps;

  it('hands every job of every manifest its dependencies, and the event delivery its bus', async () => {
    const jobs = workerJobs(app);
    const names = jobs.map((job) => job.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'billing.renewals',
        'events.deliver',
        'history.share-video',
        'knowledge-base.embed',
        'speech-to-text.transcribe',
        'studio.convert',
        'voices.pvc-separate',
        'voices.pvc-train',
        'webhooks.deliver',
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
    // The bus reaches the delivery handler as its third argument: it asks the bus to deliver.
    const delivered: unknown[] = [];
    const bus = { deliverDurable: async (...args: unknown[]) => void delivered.push(args) };
    const [delivery] = workerJobs({ ...app, events: bus } as unknown as AppDeps, [
      { name: 'events.deliver' },
    ]);
    await delivery?.handler({ event: 'e', handler: 'h', payload: 1 }, {} as never);
    expect(delivered).toEqual([['e', 'h', 1]]);
  });

  it('schedules billing renewals at the configured interval, conversations and Audio Native sessions past retention hourly, and due batch calls every 10 s', () => {
    expect(jobSchedules(app.config)).toEqual([
      { definition: expect.objectContaining({ name: 'billing.renewals' }), everyMs: 12345 },
      { definition: expect.objectContaining({ name: 'conversations.retention' }), everyMs: 3_600_000 },
      { definition: expect.objectContaining({ name: 'telephony.batch-calls' }), everyMs: 10_000 },
      { definition: expect.objectContaining({ name: 'audio-native.retention' }), everyMs: 3_600_000 },
    ]);
  });

  it('enqueues a scheduled job once per interval, keyed by the interval', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const keys: string[] = [];
      const queue = {
        enqueue: async (_d: unknown, _p: unknown, o: { singletonKey: string }) =>
          void keys.push(o.singletonKey),
      } as unknown as JobQueue;
      const definition = { name: 'test.tick' } as ScheduledJob['definition'];
      const stop = startSchedules(queue, [{ definition, everyMs: 1000 }], pino({ level: 'silent' }));
      vi.advanceTimersByTime(2500);
      stop();
      vi.advanceTimersByTime(5000);
      expect(keys).toEqual(['test.tick:1000', 'test.tick:1001', 'test.tick:1002']);
    } finally {
      vi.useRealTimers();
    }
  });
});
