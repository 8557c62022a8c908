import fs from 'node:fs';
import path from 'node:path';
import { refreshSessionRoute } from '@parla/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken, setAccessToken } from './access-token';
import { earlyRefreshGlobal, refreshAccessToken, refreshLockName } from './session-refresh';
import { storageKeys } from './storage-keys';

const session = {
  access_token: 'fresh',
  token_type: 'bearer',
  expires_in: 300,
  user_id: 'u1',
  workspace_id: 'w1',
};
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
/**
 * The calls of a fetch stub that exchanged the session: the web tests share a jsdom, where a request left
 * over by an earlier file (a page's poll) can reach the stub (one run counted 9 calls for 1).
 */
const refreshCalls = (fetch: { mock: { calls: unknown[][] } }) =>
  fetch.mock.calls.filter(([url]) => url === refreshSessionRoute.path) as [string, RequestInit?][];

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
});

describe('refreshAccessToken (issue 3 "Tokens")', () => {
  it('exchanges the cookie under the cross-tab Web Lock, once for concurrent callers in a tab', async () => {
    const held: string[] = [];
    vi.stubGlobal('navigator', {
      locks: {
        request: async (name: string, callback: () => Promise<unknown>) => {
          held.push(name);
          return callback();
        },
      },
    });
    const fetch = vi.fn(async () => json(session));
    vi.stubGlobal('fetch', fetch);
    const [a, b] = await Promise.all([refreshAccessToken(), refreshAccessToken()]);
    expect([a, b]).toEqual(['fresh', 'fresh']);
    expect(refreshCalls(fetch)).toHaveLength(1);
    expect(held).toEqual([refreshLockName]);
    expect(getAccessToken()).toBe('fresh');
    expect(localStorage.getItem('xi:has-session')).toBe('1');
  });

  it('answers null and forgets the sign-in on 401; rejects when the server cannot tell', async () => {
    localStorage.setItem('xi:has-session', '1');
    setAccessToken('old');
    vi.stubGlobal('fetch', async () => json({ detail: { status: 'unauthorized', message: 'x' } }, 401));
    await expect(refreshAccessToken()).resolves.toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('xi:has-session')).toBeNull();
    vi.stubGlobal('fetch', async () => json({}, 503));
    await expect(refreshAccessToken()).rejects.toThrow('HTTP 503');
  });
});

describe('withStorageLock (no Web Locks, e.g. plain http://)', () => {
  it('runs one holder at a time across "tabs" sharing a storage', async () => {
    const { withStorageLock } = await import('./session-refresh');
    const order: string[] = [];
    const task = (name: string) => async () => {
      order.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, 120));
      order.push(`${name} end`);
    };
    await Promise.all([withStorageLock('t', task('a')), withStorageLock('t', task('b'))]);
    expect(order).toHaveLength(4);
    expect(order[1]).toBe(`${order[0]?.split(' ')[0]} end`);
    expect(localStorage.getItem('xi:lock:t')).toBeNull();
  });

  it('takes over a lock whose holder went away', async () => {
    const { withStorageLock } = await import('./session-refresh');
    localStorage.setItem('xi:lock:t', `gone|${Date.now() - 1}`);
    await expect(withStorageLock('t', async () => 'ran')).resolves.toBe('ran');
  });
});

/** index.html's inline script that starts the exchange while the app's code downloads. */
function earlyRefreshScript(): string {
  const html = fs.readFileSync(path.resolve(import.meta.dirname, '../../index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
  const script = scripts.find((body) => body.includes(earlyRefreshGlobal));
  if (!script) throw new Error('index.html has no early refresh script');
  return script;
}

describe('the exchange index.html starts early (issue 26 item 7)', () => {
  const holder = window as unknown as Record<string, unknown>;
  afterEach(() => {
    delete holder[earlyRefreshGlobal];
  });

  it('runs only where a sign-in is held, under the same lock, on the same path, and the app takes it over', async () => {
    const held: string[] = [];
    vi.stubGlobal('navigator', {
      locks: {
        request: async (name: string, callback: () => Promise<unknown>) => {
          held.push(name);
          return callback();
        },
      },
    });
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => json(session));
    vi.stubGlobal('fetch', fetch);
    const run = new Function(earlyRefreshScript());

    run(); // no sign-in held in this browser: nothing is asked
    expect(refreshCalls(fetch)).toHaveLength(0);
    expect(holder[earlyRefreshGlobal]).toBeUndefined();

    localStorage.setItem(storageKeys.hasSession, '1');
    run();
    expect(held).toEqual([refreshLockName]);
    expect(refreshCalls(fetch)).toHaveLength(1);
    expect(refreshCalls(fetch)[0]?.[1]?.method).toBe('POST');

    // The app's first exchange is that one: no second request, and the token is the app's.
    expect(await refreshAccessToken()).toBe('fresh');
    expect(refreshCalls(fetch)).toHaveLength(1);
    expect(getAccessToken()).toBe('fresh');
    // Taken once: a later exchange asks the server again.
    await refreshAccessToken();
    expect(refreshCalls(fetch)).toHaveLength(2);
  });
});
