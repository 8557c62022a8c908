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
});
