import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../lib/access-token';
import { makeUser } from '../../test/user-fixture';
import { probeSession } from './probe-session';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
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

  it('is signed out on the 404 a server without GET /v1/user answers today', async () => {
    setAccessToken('t1');
    vi.stubGlobal('fetch', async () =>
      json({ detail: { status: 'not_found', message: 'No route matches GET /v1/user.' } }, 404),
    );
    await expect(probeSession()).resolves.toEqual({ status: 'signedOut' });
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
