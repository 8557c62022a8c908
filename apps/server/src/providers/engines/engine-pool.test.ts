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

  it('queues a synthesis while the children speak, and one past its time bound in the queue fails alone', async () => {
    const pids = new Set([await pidOf(), await pidOf()]);
    const long = 'A long sentence to keep a child busy for a while. '.repeat(10);
    const busy = [1, 2].map(() => pool.synthesize({ engine: 'espeak', voice: 'en-us', text: long }));
    // Both children speak: this one waits in the pool's queue and runs out of time there.
    await expect(
      pool.synthesize({ engine: 'espeak', voice: 'en-us', text: 'Too late.' }, 1),
    ).rejects.toMatchObject({ reason: 'timeout' });
    const results = await Promise.all(busy);
    expect(results.every((r) => r.samples.length > 0)).toBe(true);
    // No child was killed for it.
    expect(new Set([await pidOf(), await pidOf()])).toEqual(pids);
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
      10_000,
      cancel.signal,
    );
    cancel.abort();
    await expect(queued).rejects.toMatchObject({ name: 'EngineFailure', reason: 'cancelled' });
    const results = await Promise.all(busy);
    expect(results.every((r) => r.samples.length > 0)).toBe(true);
    // Cancelling after the fact changes nothing; an aborted signal is refused at once.
    await expect(
      pool.synthesize({ engine: 'espeak', voice: 'en-us', text: 'Too late.' }, 10_000, cancel.signal),
    ).rejects.toMatchObject({ reason: 'cancelled' });
  }, 30_000);

  it('reports its health from its heartbeat, with no round trip', async () => {
    await expect.poll(() => pool.health().heartbeatMs, { timeout: 5000 }).toBeGreaterThan(0);
    expect(pool.health()).toMatchObject({ ok: true, message: '2 engine processes ready' });
  });
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
