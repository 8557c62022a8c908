import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { isHttpError } from '../../../lib/http-error';
import { makeUser } from '../../../test/user-fixture';
import { getUser } from './get-user';

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('getUser', () => {
  it('GETs /v1/user with the bearer token', async () => {
    setAccessToken('t1');
    const user = makeUser({ first_name: 'Ada' });
    const fetch = vi.fn(async () => new Response(JSON.stringify(user)));
    vi.stubGlobal('fetch', fetch);
    await expect(getUser()).resolves.toEqual(user);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/v1/user');
    expect(init.method).toBe('GET');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer t1');
  });

  it('throws the HttpError of a 401', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ detail: { status: 'unauthorized' } }), { status: 401 }),
    );
    const error = await getUser().catch((caught: unknown) => caught);
    expect(isHttpError(error) && error.status).toBe(401);
  });
});
