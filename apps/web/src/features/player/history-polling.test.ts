import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getHistoryPollDelays, pollHistoryItem } from './history-polling';

describe('getHistoryPollDelays (§4)', () => {
  it('waits 1 s before the first of 10 tries and 5 s before each other one', () => {
    expect(getHistoryPollDelays()).toEqual([1000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000]);
    expect(getHistoryPollDelays(0)).toEqual([]);
  });
});

describe('pollHistoryItem', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tries at 1 s, 6 s, 11 s… and stops at the first find', async () => {
    const tries: number[] = [];
    const start = Date.now();
    const findItem = vi.fn(async () => {
      tries.push(Date.now() - start);
      if (tries.length < 3) throw new Error('Not Found');
      return true;
    });
    const result = pollHistoryItem(findItem);
    await vi.advanceTimersByTimeAsync(999);
    expect(findItem).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(findItem).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(result).resolves.toBe(true);
    expect(tries).toEqual([1000, 6000, 11_000]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(findItem).toHaveBeenCalledTimes(3);
  });

  it('gives up after 10 tries (46 s) when the item never appears', async () => {
    const findItem = vi.fn(async () => false);
    const result = pollHistoryItem(findItem);
    await vi.advanceTimersByTimeAsync(45_999);
    expect(findItem).toHaveBeenCalledTimes(9);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe(false);
    expect(findItem).toHaveBeenCalledTimes(10);
  });

  it('stops when aborted, between tries', async () => {
    const controller = new AbortController();
    const findItem = vi.fn(async () => false);
    const result = pollHistoryItem(findItem, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    await expect(result).resolves.toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(findItem).toHaveBeenCalledTimes(1);
  });
});
