import { getEventListeners } from 'node:events';
import fs from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnginePool } from './engine-pool';

let pool: EnginePool;
beforeAll(async () => {
  pool = new EnginePool({ size: 2, timeoutMs: 10_000, logger: pino({ level: 'silent' }) });
  await pool.start();
});
afterAll(() => pool.stop());

const pidOf = async () => ((await pool.run('ping')) as { pid: number }).pid;

describe('EnginePool', () => {
  it('runs calls in child processes, never in this one', async () => {
    const pids = new Set([await pidOf(), await pidOf()]);
    expect(pids.size).toBe(2);
    expect(pids.has(process.pid)).toBe(false);
  });

  it("starts its children with glibc's mmap threshold fixed (their memory given back after each run)", async () => {
    const pid = await pidOf();
    const environment = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    expect(environment).toContain('MALLOC_MMAP_THRESHOLD_=1048576');
  });

  it('a crashing child fails only its own call and is respawned', async () => {
    await expect(pool.run('crash')).rejects.toMatchObject({ name: 'EngineFailure', reason: 'crashed' });
    await expect.poll(() => pool.readyCount, { timeout: 10_000 }).toBe(2);
    expect(typeof (await pidOf())).toBe('number');
  });

  it('a call past its time bound is failed and its child killed and replaced', async () => {
    const before = new Set([await pidOf(), await pidOf()]);
    await expect(pool.run('hang', 300)).rejects.toMatchObject({ reason: 'timeout' });
    await expect.poll(() => pool.readyCount, { timeout: 10_000 }).toBe(2);
    const after = new Set([await pidOf(), await pidOf()]);
    expect([...after].filter((p) => !before.has(p))).toHaveLength(1);
  });

  it('queues a synthesis while the children speak, and one that waits past the queue bound fails alone as busy', async () => {
    const waiting = new EnginePool({
      size: 1,
      timeoutMs: 10_000,
      queueTimeoutMs: 1,
      logger: pino({ level: 'silent' }),
    });
    await waiting.start();
    try {
      const pid = ((await waiting.run('ping')) as { pid: number }).pid;
      const long = 'A long sentence to keep a child busy for a while. '.repeat(10);
      const busy = waiting.synthesize({ engine: 'espeak', voice: 'en-us', text: long });
      // The child speaks: this one waits in the pool's queue and runs out of time there.
      await expect(
        waiting.synthesize({ engine: 'espeak', voice: 'en-us', text: 'Too late.' }),
      ).rejects.toMatchObject({ reason: 'busy' });
      expect((await busy).samples.length).toBeGreaterThan(0);
      // No child was killed for it.
      expect(((await waiting.run('ping')) as { pid: number }).pid).toBe(pid);
    } finally {
      await waiting.stop();
    }
  }, 30_000);

  it('shares the children fairly: a newcomer’s synthesis runs next, before a busy tenant’s queue', async () => {
    const long = 'A long sentence to keep a child busy for a while. '.repeat(10);
    const done: string[] = [];
    const speak = (tenant: string, text: string) =>
      pool.synthesize({ engine: 'espeak', voice: 'en-us', text }, { tenant }).then(() => done.push(tenant));
    const hogging = Array.from({ length: 10 }, () => speak('hog', long));
    const newcomer = speak('newcomer', 'Hello there.');
    await Promise.all([...hogging, newcomer]);
    // In arrival order it would end last; fairly, it runs as soon as one child is free.
    expect(done.indexOf('newcomer')).toBeLessThanOrEqual(2);
  }, 30_000);

  it('never gives one tenant more than its share of the children while another waits', async () => {
    const long = 'A long sentence to keep a child busy for a while. '.repeat(10);
    // Each synthesis handed to a child is checked as the pool hands it: the property is about what a free
    // child is given while another tenant waits, not about the order of completions (a child slowed by a
    // loaded machine finishes late, rightly, and the other child's tenant then finishes several in a row).
    type Books = {
      running: Map<string, number>;
      waiting: Map<string, unknown[]>;
      dispatch: (call: { tenant: string; job: { task: string } }, slot: unknown) => void;
    };
    const books = pool as unknown as Books;
    const dispatch = books.dispatch;
    const unfair: string[] = [];
    let dispatched = 0;
    books.dispatch = function (this: Books, call, slot) {
      // The heartbeat's pings go through here too; only syntheses count against a tenant.
      if (call.job.task !== 'synthesize') return dispatch.call(this, call, slot);
      dispatched++;
      const mine = this.running.get(call.tenant) ?? 0;
      for (const [other, queue] of this.waiting)
        if (other !== call.tenant && queue.length > 0 && (this.running.get(other) ?? 0) < mine)
          unfair.push(`${call.tenant} given a child with ${mine} running while ${other} waited`);
      dispatch.call(this, call, slot);
    };
    try {
      const speak = (tenant: string) =>
        pool.synthesize({ engine: 'espeak', voice: 'en-us', text: long }, { tenant });
      await Promise.all([
        ...Array.from({ length: 8 }, () => speak('a')),
        ...Array.from({ length: 8 }, () => speak('b')),
      ]);
    } finally {
      books.dispatch = dispatch;
    }
    expect(dispatched).toBe(16);
    expect(unfair).toEqual([]);
  }, 30_000);

  it('reports how many syntheses wait and for how long, and turns unhealthy past the saturation bound', async () => {
    const saturated = new EnginePool({
      size: 1,
      timeoutMs: 10_000,
      saturatedWaitMs: 50,
      logger: pino({ level: 'silent' }),
    });
    await saturated.start();
    try {
      const long = 'A long sentence to keep a child busy for a while. '.repeat(40);
      const calls = [1, 2, 3].map(() =>
        saturated.synthesize({ engine: 'espeak', voice: 'en-us', text: long }),
      );
      expect(saturated.health()).toMatchObject({ queueLength: 2 });
      await expect
        .poll(() => saturated.health(), { timeout: 5000, interval: 10 })
        .toMatchObject({
          ok: false,
          message: expect.stringMatching(/^the engines are saturated: \d syntheses waiting/),
        });
      await Promise.all(calls);
      expect(saturated.health()).toMatchObject({ ok: true, queueLength: 0, oldestWaitMs: 0 });
    } finally {
      await saturated.stop();
    }
  }, 30_000);

  it('a ping is answered while the children speak', async () => {
    const long = 'A long sentence to keep a child busy for a while. '.repeat(10);
    const busy = [1, 2, 3].map(() => pool.synthesize({ engine: 'espeak', voice: 'en-us', text: long }));
    await expect(pool.run('ping', 2000)).resolves.toMatchObject({ pid: expect.any(Number) });
    await Promise.all(busy);
  }, 30_000);

  it('a cancelled synthesis leaves the queue and never runs; the ones speaking finish', async () => {
    const long = 'A long sentence to keep a child busy for a while. '.repeat(10);
    const busy = [1, 2].map(() => pool.synthesize({ engine: 'espeak', voice: 'en-us', text: long }));
    const cancel = new AbortController();
    const queued = pool.synthesize(
      { engine: 'espeak', voice: 'en-us', text: 'Never spoken.' },
      { signal: cancel.signal },
    );
    cancel.abort();
    await expect(queued).rejects.toMatchObject({ name: 'EngineFailure', reason: 'cancelled' });
    const results = await Promise.all(busy);
    expect(results.every((r) => r.samples.length > 0)).toBe(true);
    // Cancelling after the fact changes nothing; an aborted signal is refused at once.
    await expect(
      pool.synthesize({ engine: 'espeak', voice: 'en-us', text: 'Too late.' }, { signal: cancel.signal }),
    ).rejects.toMatchObject({ reason: 'cancelled' });
  }, 30_000);

  it('reports its health from its heartbeat, with no round trip', async () => {
    await expect.poll(() => pool.health().heartbeatMs, { timeout: 5000 }).toBeGreaterThan(0);
    expect(pool.health()).toMatchObject({ ok: true, message: '2 engine processes ready' });
  });

  it('leaves no listener on a cancel signal shared by many syntheses', async () => {
    const cancel = new AbortController();
    const listeners = () => getEventListeners(cancel.signal, 'abort').length;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        pool.synthesize(
          { engine: 'espeak', voice: 'en-us', text: `Sentence ${i}.` },
          { signal: cancel.signal },
        ),
      ),
    );
    expect(listeners()).toBe(0);
  }, 30_000);
});

describe('EnginePool heartbeat', () => {
  it('kills and replaces a child that stops answering, with no call waiting on it', async () => {
    const beating = new EnginePool({
      size: 1,
      timeoutMs: 60_000,
      heartbeatMs: 100,
      heartbeatTimeoutMs: 400,
      logger: pino({ level: 'silent' }),
    });
    await beating.start();
    try {
      const before = ((await beating.run('ping')) as { pid: number }).pid;
      // The child's own thread loops for good; the call's own bound (60 s) is far away.
      const hung = beating.run('hang', 60_000);
      await expect.poll(() => beating.health().ok, { timeout: 2000, interval: 20 }).toBe(false);
      await expect(hung).rejects.toMatchObject({ reason: 'crashed' });
      await expect.poll(() => beating.health().ok, { timeout: 10_000 }).toBe(true);
      expect(((await beating.run('ping')) as { pid: number }).pid).not.toBe(before);
    } finally {
      await beating.stop();
    }
  }, 20_000);
});
