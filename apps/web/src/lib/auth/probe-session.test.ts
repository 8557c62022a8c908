import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/user-fixture';
import { getAccessToken, setAccessToken } from '../access-token';
import { probeSession } from './probe-session';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
});

describe('probeSession (accounts §4)', () => {
  it('is signed out without an access token, and asks nobody', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await expect(probeSession()).resolves.toEqual({ status: 'signedOut' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('is signed in when GET /v1/user answers 200', async () => {
    setAccessToken('t1');
    const user = makeUser();
    vi.stubGlobal('fetch', async () => json(user));
    await expect(probeSession()).resolves.toEqual({ status: 'signedIn', user });
  });

  it('is signed out when GET /v1/user answers 401', async () => {
    setAccessToken('expired');
    vi.stubGlobal('fetch', async () =>
      json({ detail: { status: 'unauthorized', message: 'Sign in again.' } }, 401),
    );
    await expect(probeSession()).resolves.toEqual({ status: 'signedOut' });
  });

  it('exchanges the refresh cookie on a new page of a browser that holds a sign-in', async () => {
    localStorage.setItem('xi:has-session', '1');
    const user = makeUser();
    const session = {
      access_token: 'fresh',
      token_type: 'bearer',
      expires_in: 300,
      user_id: 'u1',
      workspace_id: 'w1',
    };
    const fetch = vi.fn(async (url: string) => (url === '/v1/auth/refresh' ? json(session) : json(user)));
    vi.stubGlobal('fetch', fetch);
    await expect(probeSession()).resolves.toEqual({ status: 'signedIn', user });
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/v1/auth/refresh', '/v1/user']);
    expect(getAccessToken()).toBe('fresh');
  });

  it('is signed out when the refresh cookie is refused, and forgets the sign-in', async () => {
    localStorage.setItem('xi:has-session', '1');
    vi.stubGlobal('fetch', async () => json({ detail: { status: 'unauthorized', message: 'x' } }, 401));
    await expect(probeSession()).resolves.toEqual({ status: 'signedOut' });
    expect(localStorage.getItem('xi:has-session')).toBeNull();
  });

  it('retries a 401 once after refreshing the expired token', async () => {
    setAccessToken('expired');
    localStorage.setItem('xi:has-session', '1');
    const user = makeUser();
    const session = {
      access_token: 'fresh',
      token_type: 'bearer',
      expires_in: 300,
      user_id: 'u1',
      workspace_id: 'w1',
    };
    const fetch = vi.fn(async (url: string, init: RequestInit) => {
      if (url === '/v1/auth/refresh') return json(session);
      const auth = new Headers(init.headers).get('authorization');
      return auth === 'Bearer fresh'
        ? json(user)
        : json({ detail: { status: 'unauthorized', message: 'x' } }, 401);
    });
    vi.stubGlobal('fetch', fetch);
    await expect(probeSession()).resolves.toEqual({ status: 'signedIn', user });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['the server fails', async () => json({ detail: { status: 'internal_error', message: 'x' } }, 500)],
    ['the body breaks the contract', async () => json({ id: 'u1' })],
    [
      'the network fails',
      async () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('cannot tell when %s', async (_, fetch) => {
    setAccessToken('t1');
    vi.stubGlobal('fetch', fetch);
    await expect(probeSession()).resolves.toMatchObject({ status: 'unavailable' });
  });
});
