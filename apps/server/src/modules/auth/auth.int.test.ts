import { ErrorResponse, passwordMessages, SessionResponse } from '@parla/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { addWhoamiRoute, createTestApp, type TestApp } from '../../test/test-app';
import { getUserByEmail } from '../users';
import { getMemberRole } from '../workspaces/workspaces.store';
import { REFRESH_REUSE_GRACE_SECONDS } from './refresh-tokens.service';

/** The app's clock: real time plus an offset a test may move (the refresh grace window). */
let clockOffsetMs = 0;
const clock = { now: () => new Date(Date.now() + clockOffsetMs) };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ extend: addWhoamiRoute, clock });
});
afterAll(() => t.close());

const PASSWORD = 'correct-horse-9';
/** Each test uses its own client address, so the per-address rate limits never meet. */
const client = () => `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const post = (url: string, payload: unknown, ip: string, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    remoteAddress: ip,
    headers: cookie ? { cookie } : {},
  });
const refreshCookie = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'xi_refresh');
const newEmail = () => `ada-${newId(8).toLowerCase()}@example.test`;

async function signUp(ip = client()) {
  const email = newEmail();
  const res = await post('/v1/auth/sign-up', { email, password: PASSWORD, first_name: 'Ada' }, ip);
  expect(res.statusCode).toBe(201);
  return { email, ip, res, session: SessionResponse.parse(res.json()) };
}

describe('sign-up', () => {
  it('creates the account with its own workspace (owner = admin), signs in and sets the refresh cookie', async () => {
    const { email, res, session } = await signUp();
    const user = await getUserByEmail(t.deps.database.db, email);
    expect(user?.id).toBe(session.user_id);
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await getMemberRole(t.deps.database.db, session.workspace_id, session.user_id)).toBe('admin');
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 300 });
    const cookie = refreshCookie(res);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/auth' });
    const me = await t.app.inject({
      method: 'GET',
      url: '/v1/test/whoami',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(me.json()).toEqual({
      userId: session.user_id,
      workspaceId: session.workspace_id,
      via: 'access_token',
      role: 'admin',
    });
  });

  it('refuses a weak password with the §5 message, and a taken email', async () => {
    const weak = await post('/v1/auth/sign-up', { email: newEmail(), password: 'short' }, client());
    expect(weak.statusCode).toBe(422);
    expect(weak.json().detail.errors[0]).toMatchObject({ loc: ['body', 'password'] });
    expect(weak.json().detail.errors[0].msg).toBe(
      `${passwordMessages.prefix} ${passwordMessages.number} ${passwordMessages.special} ${passwordMessages.length}`,
    );
    const { email } = await signUp();
    const again = await post(
      '/v1/auth/sign-up',
      { email: email.toUpperCase(), password: PASSWORD },
      client(),
    );
    expect(again.statusCode).toBe(409);
    expect(ErrorResponse.parse(again.json()).detail.status).toBe('email_taken');
  });
});

describe('sign-in', () => {
  it('signs in with the right password, case-insensitively on the email', async () => {
    const { email } = await signUp();
    const res = await post('/v1/auth/sign-in', { email: email.toUpperCase(), password: PASSWORD }, client());
    expect(res.statusCode).toBe(200);
    expect(refreshCookie(res)?.value).toBeTruthy();
  });

  it('answers a wrong password exactly as an unknown email', async () => {
    const { email } = await signUp();
    const wrongPassword = await post('/v1/auth/sign-in', { email, password: 'wrong-horse-9' }, client());
    const unknownEmail = await post(
      '/v1/auth/sign-in',
      { email: newEmail(), password: 'wrong-horse-9' },
      client(),
    );
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(unknownEmail.json());
    expect(wrongPassword.json()).toEqual({
      detail: { status: 'invalid_credentials', message: 'Wrong email or password.' },
    });
    expect(refreshCookie(wrongPassword)).toBeUndefined();
  });

  it('is rate limited per client address: the 11th try in 5 minutes is a 429', async () => {
    const ip = client();
    const email = newEmail();
    for (let i = 0; i < 10; i++)
      expect((await post('/v1/auth/sign-in', { email, password: 'x' }, ip)).statusCode).toBe(401);
    const limited = await post('/v1/auth/sign-in', { email, password: 'x' }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail.status).toBe('rate_limited');
  });
});

describe('refresh and sign-out', () => {
  it('rotates the cookie; reusing the old one after the grace window revokes the family and clears the cookie', async () => {
    const { res, ip } = await signUp();
    const first = `xi_refresh=${refreshCookie(res)?.value}`;
    const refreshed = await post('/v1/auth/refresh', undefined, ip, first);
    expect(refreshed.statusCode).toBe(200);
    SessionResponse.parse(refreshed.json());
    const second = `xi_refresh=${refreshCookie(refreshed)?.value}`;
    expect(second).not.toBe(first);

    clockOffsetMs = (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000;
    try {
      const replay = await post('/v1/auth/refresh', undefined, ip, first);
      expect(replay.statusCode).toBe(401);
      expect(refreshCookie(replay)?.value).toBe('');
      // The family is gone: even the newest cookie no longer works.
      expect((await post('/v1/auth/refresh', undefined, ip, second)).statusCode).toBe(401);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('tabs refreshing with one cookie at the same moment all get the same new cookie and a valid session', async () => {
    const { res, ip } = await signUp();
    const cookie = `xi_refresh=${refreshCookie(res)?.value}`;
    const answers = await Promise.all([1, 2, 3].map(() => post('/v1/auth/refresh', undefined, ip, cookie)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const cookies = answers.map((a) => refreshCookie(a)?.value);
    expect(new Set(cookies).size).toBe(1);
    expect(cookies[0]).not.toBe(refreshCookie(res)?.value);
    for (const answer of answers) {
      const session = SessionResponse.parse(answer.json());
      const whoami = await t.app.inject({
        method: 'GET',
        url: '/v1/test/whoami',
        headers: { authorization: `Bearer ${session.access_token}` },
      });
      expect(whoami.statusCode).toBe(200);
    }
    // The shared successor is the live token: it rotates on.
    const next = await post('/v1/auth/refresh', undefined, ip, `xi_refresh=${cookies[0]}`);
    expect(next.statusCode).toBe(200);
  });

  it('refuses a refresh without a cookie', async () => {
    const res = await post('/v1/auth/refresh', undefined, client());
    expect(res.statusCode).toBe(401);
    expect(res.json().detail.status).toBe('unauthorized');
  });

  it('sign-out ends the session: the cookie is cleared and no longer refreshes', async () => {
    const { res, ip } = await signUp();
    const cookie = `xi_refresh=${refreshCookie(res)?.value}`;
    const out = await post('/v1/auth/sign-out', undefined, ip, cookie);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ status: 'ok' });
    expect(refreshCookie(out)?.value).toBe('');
    expect((await post('/v1/auth/refresh', undefined, ip, cookie)).statusCode).toBe(401);
  });
});

/** The spec's sentence for a rate-limited call (accounts §5 "Email-action results"). */
const TOO_MANY_ATTEMPTS = 'Too many attempts, please try again in a few minutes.';

/** Sends `max` requests from one fresh address, none limited; the next is a 429 in the API's error shape. */
async function expectLimitedAfter(max: number, send: (ip: string) => Promise<LightMyRequestResponse>) {
  const ip = client();
  // Below 429: answered (or refused) by the route itself, not limited and not failing.
  for (let i = 0; i < max; i += 1) expect((await send(ip)).statusCode).toBeLessThan(429);
  const limited = await send(ip);
  expect(limited.statusCode).toBe(429);
  expect(limited.json()).toEqual({ detail: { status: 'rate_limited', message: TOO_MANY_ATTEMPTS } });
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
}

describe('rate limits per client address', () => {
  it.each<[string, number, (ip: string) => Promise<LightMyRequestResponse>]>([
    [
      'sign-up, 10 an hour',
      10,
      (ip) => post('/v1/auth/sign-up', { email: newEmail(), password: PASSWORD }, ip),
    ],
    [
      'sign-in second step, 10 in 5 minutes',
      10,
      (ip) => post('/v1/auth/sign-in/mfa', { mfa_token: 'not-a-token', code: '000000' }, ip),
    ],
    ['refresh, 60 a minute', 60, (ip) => post('/v1/auth/refresh', undefined, ip)],
    [
      'send-verification-email, 5 in 15 minutes',
      5,
      (ip) => post('/v1/user/send-verification-email', { email: newEmail() }, ip),
    ],
    [
      'check-password-reset-code, 20 in 15 minutes',
      20,
      (ip) => post('/v1/auth/action/check-password-reset-code', { actionCode: 'wrong' }, ip),
    ],
    [
      'reset-password, 10 in 15 minutes',
      10,
      (ip) => post('/v1/auth/action/reset-password', { actionCode: 'wrong', newPassword: PASSWORD }, ip),
    ],
    [
      'verify-email, 20 in 15 minutes',
      20,
      (ip) => post('/v1/auth/action/verify-email', { actionCode: 'wrong' }, ip),
    ],
    [
      'opt-out-of-updates, 20 in 15 minutes',
      20,
      (ip) => post('/v1/user/opt-out-of-updates', { opt_out_updates_key: 'wrong' }, ip),
    ],
    [
      'sign-in-requests/verify, 20 in 15 minutes',
      20,
      (ip) => post('/v1/user/sign-in-requests/verify', { sign_in_request_verification_code: 'wrong' }, ip),
    ],
    [
      'backup-code remove-mfa, 10 in 15 minutes',
      10,
      (ip) => post('/v1/user/backup-code/wrong/remove-mfa', { mfa_token: 'not-a-token' }, ip),
    ],
  ])('%s', async (_route, max, send) => {
    await expectLimitedAfter(max, send);
  });

  it('update-mfa-factors, 20 in 5 minutes', async () => {
    const { session } = await signUp();
    await expectLimitedAfter(20, (ip) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/user/update-mfa-factors',
        payload: { action: 'enroll_totp' },
        remoteAddress: ip,
        headers: { authorization: `Bearer ${session.access_token}` },
      }),
    );
  });
});
