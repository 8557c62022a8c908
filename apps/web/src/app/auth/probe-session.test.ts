import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../lib/access-token';
import { probeSession } from './probe-session';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('probeSession', () => {
  it('is signed out without an access token, and asks nobody', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await expect(probeSession()).resolves.toEqual({ status: 'signedOut' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('is signed in when GET /v1/user answers 200, with the bearer token', async () => {
    setAccessToken('t1');
    const fetch = vi.fn(async () =>
      json({ user_id: 'u1', workspace_id: 'w1', subscription: { tier: 'free' } }),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(probeSession()).resolves.toEqual({
      status: 'signedIn',
      user: { user_id: 'u1', workspace_id: 'w1' },
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/v1/user');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer t1');
  });

  it('is signed out when GET /v1/user answers 401', async () => {
    setAccessToken('expired');
    vi.stubGlobal('fetch', async () =>
      json({ detail: { status: 'unauthorized', message: 'Sign in again.' } }, 401),
    );
    await expect(probeSession()).resolves.toEqual({ status: 'signedOut' });
  });

  it('cannot tell when the server fails', async () => {
    setAccessToken('t1');
    vi.stubGlobal('fetch', async () => json({ detail: { status: 'internal_error', message: 'x' } }, 500));
    await expect(probeSession()).resolves.toMatchObject({ status: 'unavailable' });
  });
});
