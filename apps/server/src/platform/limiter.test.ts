import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('Limiter', () => {
  it('runs at most `limit` tasks at once, in order, and keeps going after a failure', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) =>
      limiter.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
        order.push(n);
        if (n === 3) throw new Error('task 3 fails');
        return n;
      });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
    expect(most).toBe(2);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(order.sort()).toEqual([1, 2, 3, 4, 5, 6]);
    // Free again: a new task runs at once.
    expect(await limiter.run(async () => 'alone')).toBe('alone');
  });
});
