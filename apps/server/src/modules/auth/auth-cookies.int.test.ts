import { MfaChallengeResponse, SessionResponse } from '@parla/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { createTestApp, type TestApp } from '../../test/test-app';
import { totpCode, totpStep } from './totp';

// A server behind TLS: every refresh cookie it sets or clears must be Secure.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://parla.example' } });
});
afterAll(() => t.close());

const PASSWORD = 'correct-horse-9';
const ip = `10.11.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const call = (url: string, options: { body?: unknown; token?: string; cookie?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    ...(options.body === undefined ? {} : { payload: options.body as object }),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
  });

/** The refresh cookie the answer set (or cleared), checked for its attributes; its `name=value`. */
function secureCookieOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'xi_refresh');
  expect(cookie, `${res.statusCode} ${res.body}`).toMatchObject({
    secure: true,
    httpOnly: true,
    sameSite: 'Strict',
    path: '/v1/auth',
  });
  return `xi_refresh=${cookie?.value}`;
}

describe('the refresh cookie with an https PUBLIC_URL', () => {
  it('is Secure wherever it is set or cleared: sign-up, refresh, sign-in, its second step, the backup-code sign-in, a failed refresh, sign-out', async () => {
    const email = `sec-${newId(8).toLowerCase()}@example.test`;
    const signUp = await call('/v1/auth/sign-up', { body: { email, password: PASSWORD } });
    expect(signUp.statusCode).toBe(201);
    const refreshed = await call('/v1/auth/refresh', { cookie: secureCookieOf(signUp) });
    expect(refreshed.statusCode).toBe(200);
    secureCookieOf(refreshed);
    const signedIn = await call('/v1/auth/sign-in', { body: { email, password: PASSWORD } });
    expect(signedIn.statusCode).toBe(200);
    secureCookieOf(signedIn);

    // A second factor: its sign-in step, and the backup code that removes it while signing in.
    const token = SessionResponse.parse(signUp.json()).access_token;
    const enrol = await call('/v1/user/update-mfa-factors', { token, body: { action: 'enroll_totp' } });
    const secret: string = enrol.json().totp_secret;
    const step = totpStep(new Date());
    const verify = await call('/v1/user/update-mfa-factors', {
      token,
      body: { action: 'verify_totp', code: totpCode(secret, step - 1) },
    });
    const backupCode: string = verify.json().backup_code;
    const challenge = async () =>
      MfaChallengeResponse.parse(
        (await call('/v1/auth/sign-in', { body: { email, password: PASSWORD } })).json(),
      );
    const mfa = await call('/v1/auth/sign-in/mfa', {
      body: { mfa_token: (await challenge()).mfa_token, code: totpCode(secret, step) },
    });
    expect(mfa.statusCode).toBe(200);
    secureCookieOf(mfa);
    const backup = await call(`/v1/user/backup-code/${backupCode}/remove-mfa`, {
      body: { mfa_token: (await challenge()).mfa_token },
    });
    expect(backup.statusCode).toBe(200);
    const live = secureCookieOf(backup);

    // Cleared: a refused refresh and a sign-out.
    const refused = await call('/v1/auth/refresh', { cookie: 'xi_refresh=not-a-token' });
    expect(refused.statusCode).toBe(401);
    expect(secureCookieOf(refused)).toBe('xi_refresh=');
    const signOut = await call('/v1/auth/sign-out', { cookie: live });
    expect(signOut.statusCode).toBe(200);
    expect(secureCookieOf(signOut)).toBe('xi_refresh=');
  });
});
