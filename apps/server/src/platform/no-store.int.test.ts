import { PREMADE_VOICES } from '@parla/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  // The preview below is spoken by an engine: a generous bound, as the suite shares the cores.
  t = await createTestApp({ env: { ENGINE_TIMEOUT_MS: '30000' } });
});
afterAll(() => t.close());

const ip = () => `10.12.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const call = (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string> = {},
  payload?: object,
): Promise<LightMyRequestResponse> =>
  t.app.inject({ method, url, headers, remoteAddress: ip(), ...(payload ? { payload } : {}) });
const cacheControlOf = (res: LightMyRequestResponse) => [res.statusCode, res.headers['cache-control']];

describe('Cache-Control on answers that carry the account', () => {
  it('is no-store on the auth calls, the user, workspace, keys, billing, usage, consent and messages', async () => {
    const email = `store-${Date.now()}@example.test`;
    const signUp = await call('POST', '/v1/auth/sign-up', {}, { email, password: 'correct-horse-9' });
    expect(cacheControlOf(signUp)).toEqual([201, 'no-store']);
    const signIn = await call('POST', '/v1/auth/sign-in', {}, { email, password: 'correct-horse-9' });
    expect(cacheControlOf(signIn)).toEqual([200, 'no-store']);
    const cookie = `xi_refresh=${signIn.cookies.find((c) => c.name === 'xi_refresh')?.value}`;
    expect(cacheControlOf(await call('POST', '/v1/auth/refresh', { cookie }))).toEqual([200, 'no-store']);

    const { accessToken, apiKey } = await signUpWithApiKey(t.app);
    const bearer = { authorization: `Bearer ${accessToken}` };
    const now = Math.floor(Date.now() / 1000);
    const reads = [
      '/v1/user',
      '/v1/user/subscription',
      '/v1/user/workspaces',
      '/v1/workspace',
      '/v1/workspace/members',
      '/v1/user/api-keys',
      '/v1/billing/overview',
      `/v1/usage/character-stats?start_unix=${now - 86_400}&end_unix=${now}`,
      '/v1/user/consent',
      '/v1/user/messages',
    ];
    for (const url of reads) {
      expect([url, ...cacheControlOf(await call('GET', url, bearer))]).toEqual([url, 200, 'no-store']);
    }
    // A new key's secret, a read with a key, and refusals too.
    const created = await call('POST', '/v1/user/api-keys', bearer, { name: 'another' });
    expect(cacheControlOf(created)).toEqual([201, 'no-store']);
    expect(cacheControlOf(await call('GET', '/v1/user', { 'xi-api-key': apiKey }))).toEqual([
      200,
      'no-store',
    ]);
    expect(cacheControlOf(await call('GET', '/v1/user'))).toEqual([401, 'no-store']);
  });

  it('leaves the header a route sets itself: a premade voice preview and /health', async () => {
    const voice = PREMADE_VOICES[0]?.voice_id ?? '';
    const preview = await call('GET', `/v1/voices/${voice}/preview`);
    expect(cacheControlOf(preview)).toEqual([200, 'public, max-age=86400']);
    expect((await call('GET', '/health')).headers['cache-control']).toBe('no-store');
  });
});
