import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/user-fixture';
import { setAccessToken } from '../access-token';
import { createAuthStore } from './auth-store';
import { getProbeRetryDelayMs, watchSession } from './watch-session';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const networkFailure = async () => {
  throw new TypeError('Failed to fetch');
};

let stop: (() => void) | undefined;

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  stop?.();
  stop = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

/** Starts a watch with a token, and lets the first probe answer. */
async function startWatch(fetch: () => Promise<Response>) {
  const fetchMock = vi.fn(fetch);
  vi.stubGlobal('fetch', fetchMock);
  setAccessToken('t1');
  const store = createAuthStore();
  stop = watchSession(store);
  await vi.advanceTimersByTimeAsync(0);
  return { fetch: fetchMock, store };
}

describe('getProbeRetryDelayMs', () => {
  it('doubles from 1 s and stops growing at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20, 2000].map(getProbeRetryDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000,
    ]);
  });
});

describe('watchSession (accounts §4)', () => {
  it('asks again with backoff while the state is unknown, until the server answers', async () => {
    const { fetch, store } = await startWatch(networkFailure);
    fetch
      .mockImplementationOnce(async () => json({ detail: { status: 'internal_error', message: 'x' } }, 500))
      .mockImplementationOnce(async () => json({ id: 'not the contract' }))
      .mockImplementationOnce(async () => json(makeUser()));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(store.getState().status).toBe('unknown');

    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2); // the 500
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(3); // the broken body
    await vi.advanceTimersByTimeAsync(4000);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(store.getState()).toMatchObject({ status: 'signedIn', user: { user_id: 'u1' } });

    await vi.advanceTimersByTimeAsync(120_000);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('takes a refused token as signed out (after one refused refresh), and does not ask again', async () => {
    const { fetch, store } = await startWatch(async () =>
      json({ detail: { status: 'unauthorized', message: 'Sign in again.' } }, 401),
    );
    // The refresh waits for the cross-tab lock (jsdom has no Web Locks), then the sign-out delay runs.
    await vi.advanceTimersByTimeAsync(1200);
    expect(store.getState().status).toBe('signedOut');
    await vi.advanceTimersByTimeAsync(120_000);
    expect((fetch.mock.calls as unknown as [string][]).map(([url]) => url)).toEqual([
      '/v1/user',
      '/v1/auth/refresh',
    ]);
  });

  it('stops asking when stopped', async () => {
    const { fetch } = await startWatch(networkFailure);
    stop?.();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a token change probes at once and starts the backoff over', async () => {
    const { fetch } = await startWatch(networkFailure);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).toHaveBeenCalledTimes(2); // the next wait would be 2 s
    setAccessToken('t2');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('a sign-out (no token) ends the retries', async () => {
    const { fetch, store } = await startWatch(networkFailure);
    setAccessToken(null);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(store.getState().status).toBe('signedOut');
  });

  it('once signed in, keeps the state when a later probe cannot tell, and does not retry', async () => {
    const { fetch, store } = await startWatch(async () => json(makeUser()));
    expect(store.getState().status).toBe('signedIn');
    fetch.mockImplementation(networkFailure);
    setAccessToken('t2');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(store.getState().status).toBe('signedIn');
  });
});
