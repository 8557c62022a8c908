import { ErrorResponse, SessionResponse, UserResponse } from '@parla/contracts';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { linkIn, startSmtpServer } from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { getUserByEmail } from '../users';
import { type AccountActionDeps, requestSupportAccess } from './account-actions.service';

/** Every mail of these tests travels over real SMTP, and the tests follow the links in them. */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
const PUBLIC_URL = 'http://parla.test:8080';
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const PASSWORD = 'correct-horse-9';
const client = () => `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const newEmail = () => `grace-${newId(8).toLowerCase()}@example.test`;
const toOf = (mail: ParsedMail) => (mail.to && !Array.isArray(mail.to) ? mail.to.text : '');

/** Waits for the `n`-th mail (1-based) to an address and answers it. */
async function mailTo(address: string, n = 1): Promise<ParsedMail> {
  await expect.poll(() => smtp.received.filter((m) => toOf(m) === address).length, { timeout: 5000 }).toBe(n);
  const mails = smtp.received.filter((m) => toOf(m) === address);
  return mails[n - 1] as ParsedMail;
}

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: {
    body?: unknown;
    token?: string;
    ip?: string;
    cookie?: string;
    headers?: Record<string, string>;
  } = {},
) =>
  t.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? client(),
    ...(options.body === undefined ? {} : { payload: options.body as object }),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
  });

async function signUp(extra: Record<string, unknown> = {}) {
  const email = newEmail();
  const res = await call('POST', '/v1/auth/sign-up', { body: { email, password: PASSWORD, ...extra } });
  expect(res.statusCode).toBe(201);
  const refresh = res.cookies.find((c) => c.name === 'xi_refresh');
  return { email, session: SessionResponse.parse(res.json()), cookie: `xi_refresh=${refresh?.value}` };
}

const userOf = async (token: string) => UserResponse.parse((await call('GET', '/v1/user', { token })).json());
const statusOf = (res: { json(): unknown }) => ErrorResponse.parse(res.json()).detail.status;

describe('email verification', () => {
  it('mails the link at sign-up; following it verifies the address, once', async () => {
    const { email, session } = await signUp();
    expect((await userOf(session.access_token)).email_verified).toBe(false);
    const mail = await mailTo(email);
    expect(mail.subject).toBe('Verify your email for Parla');
    const link = linkIn(mail.text, `${PUBLIC_URL}/auth/action?`);
    expect(link.searchParams.get('mode')).toBe('verifyEmail');
    expect(link.searchParams.get('continueUrl')).toBe('/app/sign-in');
    const body = { actionCode: link.searchParams.get('oobCode'), continueUrl: '/app/sign-in', lang: 'en' };
    const res = await call('POST', '/v1/auth/action/verify-email', { body });
    expect(res.json()).toEqual({ status: 'ok', email });
    expect((await userOf(session.access_token)).email_verified).toBe(true);
    const again = await call('POST', '/v1/auth/action/verify-email', { body });
    expect(again.statusCode).toBe(400);
    expect(statusOf(again)).toBe('invalid_action_code');
  });

  it('sends again on request, keeps a same-origin continue URL only, and says nothing about unknown addresses', async () => {
    const { email } = await signUp();
    await mailTo(email);
    const res = await call('POST', '/v1/user/send-verification-email', {
      body: { email, continue_url: `${PUBLIC_URL}/app/speech-synthesis?x=1` },
    });
    expect(res.json()).toEqual({ status: 'ok' });
    const link = linkIn((await mailTo(email, 2)).text, `${PUBLIC_URL}/auth/action?`);
    expect(link.searchParams.get('continueUrl')).toBe('/app/speech-synthesis?x=1');

    await call('POST', '/v1/user/send-verification-email', {
      body: { email, continue_url: 'https://evil.test/x' },
    });
    const evil = linkIn((await mailTo(email, 3)).text, `${PUBLIC_URL}/auth/action?`);
    expect(evil.searchParams.get('continueUrl')).toBe('/app/sign-in');

    const before = smtp.received.length;
    const unknown = await call('POST', '/v1/user/send-verification-email', { body: { email: newEmail() } });
    expect(unknown.json()).toEqual({ status: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.length).toBe(before);
  });
});

describe('password reset', () => {
  it('checks the code first, then sets the password, ends every session and works once', async () => {
    const { email, cookie } = await signUp();
    await mailTo(email);
    const ip = client();
    expect(
      (await call('POST', '/v1/user/send-password-reset-email', { body: { email }, ip })).statusCode,
    ).toBe(200);
    const mail = await mailTo(email, 2);
    expect(mail.subject).toBe('Reset your password for Parla');
    const code = linkIn(mail.text, `${PUBLIC_URL}/auth/action?`).searchParams.get('oobCode');

    const check = await call('POST', '/v1/auth/action/check-password-reset-code', {
      body: { actionCode: code },
    });
    expect(check.json()).toEqual({ email });
    const bad = await call('POST', '/v1/auth/action/check-password-reset-code', {
      body: { actionCode: 'nope' },
    });
    expect(statusOf(bad)).toBe('invalid_action_code');

    const weak = await call('POST', '/v1/auth/action/reset-password', {
      body: { actionCode: code, newPassword: 'weak' },
    });
    expect(weak.statusCode).toBe(422);

    const newPassword = 'new-horse-battery-7';
    const reset = await call('POST', '/v1/auth/action/reset-password', {
      body: { actionCode: code, newPassword },
    });
    expect(reset.json()).toEqual({ status: 'ok' });
    const reused = await call('POST', '/v1/auth/action/reset-password', {
      body: { actionCode: code, newPassword },
    });
    expect(statusOf(reused)).toBe('invalid_action_code');

    expect((await call('POST', '/v1/auth/refresh', { cookie })).statusCode).toBe(401);
    expect((await call('POST', '/v1/auth/sign-in', { body: { email, password: PASSWORD } })).statusCode).toBe(
      401,
    );
    expect(
      (await call('POST', '/v1/auth/sign-in', { body: { email, password: newPassword } })).statusCode,
    ).toBe(200);
    expect((await getUserByEmail(t.deps.database.db, email))?.emailVerifiedAt).not.toBeNull();
  });

  it('answers the same for an unknown address, and limits requests per client (429 in the error shape)', async () => {
    const ip = client();
    for (let i = 0; i < 5; i += 1) {
      const res = await call('POST', '/v1/user/send-password-reset-email', {
        body: { email: newEmail() },
        ip,
      });
      expect(res.json()).toEqual({ status: 'ok' });
    }
    const limited = await call('POST', '/v1/user/send-password-reset-email', {
      body: { email: newEmail() },
      ip,
    });
    expect(limited.statusCode).toBe(429);
    expect(statusOf(limited)).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('product updates opt-out and support access', () => {
  it('opts out with the key of the link in the mail', async () => {
    const { email } = await signUp({ agrees_to_product_updates: true });
    const mail = await mailTo(email);
    const link = linkIn(mail.text?.split('Opt out:')[1], `${PUBLIC_URL}/auth/action?`);
    expect(link.searchParams.get('mode')).toBe('optOutOfUpdates');
    const res = await call('POST', '/v1/user/opt-out-of-updates', {
      body: { opt_out_updates_key: link.searchParams.get('oobCode') },
    });
    expect(res.json()).toEqual({ status: 'ok' });
    expect((await getUserByEmail(t.deps.database.db, email))?.agreesToProductUpdates).toBe(false);
    const bad = await call('POST', '/v1/user/opt-out-of-updates', { body: { opt_out_updates_key: 'x' } });
    expect(statusOf(bad)).toBe('invalid_action_code');
  });

  it('grants support access once, from the sign-in request mail', async () => {
    const { email } = await signUp();
    const deps: AccountActionDeps = {
      db: t.deps.database.db,
      clock: t.deps.clock,
      mailer: t.deps.providers.mail,
      logger: t.deps.logger,
      publicUrl: PUBLIC_URL,
    };
    await requestSupportAccess(deps, email);
    const mail = await mailTo(email, 2);
    const link = linkIn(mail.text, `${PUBLIC_URL}/auth/action?`);
    expect(link.searchParams.get('mode')).toBe('verifySignInRequest');
    const body = { sign_in_request_verification_code: link.searchParams.get('oobCode') };
    expect((await call('POST', '/v1/user/sign-in-requests/verify', { body })).json()).toEqual({
      status: 'ok',
    });
    const until = (await getUserByEmail(t.deps.database.db, email))?.supportAccessUntil;
    expect(until?.getTime()).toBeGreaterThan(Date.now() + 71 * 3600_000);
    expect(statusOf(await call('POST', '/v1/user/sign-in-requests/verify', { body }))).toBe(
      'invalid_action_code',
    );
  });
});

describe('sensitive actions and the email change', () => {
  it('needs a verified code from the mailed link, changes the email with the code sent to the new address, and reverts from the old one', async () => {
    const { email, session, cookie } = await signUp();
    await mailTo(email);
    const token = session.access_token;
    const newAddress = newEmail();

    const refused = await call('POST', '/v1/user/send-email-change-verification', {
      token,
      body: { new_email: newAddress },
    });
    expect(refused.statusCode).toBe(403);
    expect(statusOf(refused)).toBe('sensitive_action_verification_required');

    const wrong = await call('POST', '/v1/user/prepare-internal-verification', {
      token,
      body: { email: newAddress },
    });
    expect(wrong.statusCode).toBe(422);
    await call('POST', '/v1/user/prepare-internal-verification', { token, body: { email } });
    const internal = linkIn((await mailTo(email, 2)).text, `${PUBLIC_URL}/?`);
    expect(internal.searchParams.get('newUser')).toBe('false');
    const internalCode = internal.searchParams.get('internalCode') ?? '';

    // Not verified yet: the code alone is not enough.
    const unverified = await call('POST', '/v1/user/send-email-change-verification', {
      token,
      body: { new_email: newAddress },
      headers: { 'xi-sensitive-action-code': internalCode },
    });
    expect(statusOf(unverified)).toBe('sensitive_action_verification_required');
    const verify = await call('POST', '/v1/user/verify-sensitive-action-code', {
      token,
      body: { verification_code: internalCode },
    });
    expect(verify.json()).toEqual({ status: 'ok' });

    const sent = await call('POST', '/v1/user/send-email-change-verification', {
      token,
      body: { new_email: newAddress },
      headers: { 'xi-sensitive-action-code': internalCode },
    });
    expect(sent.json()).toEqual({ status: 'ok' });
    const changeMail = await mailTo(newAddress);
    const changeCode = linkIn(changeMail.text, `${PUBLIC_URL}/app/settings?`).searchParams.get(
      'email_change_code',
    );
    expect(changeMail.text).toContain(`Or enter this code: ${changeCode}`);

    // The sensitive code was spent.
    const spent = await call('POST', '/v1/user/send-email-change-verification', {
      token,
      body: { new_email: newEmail() },
      headers: { 'xi-sensitive-action-code': internalCode },
    });
    expect(statusOf(spent)).toBe('sensitive_action_verification_required');

    const unauthenticated = await call(
      'PUT',
      `/v1/user/email?verification_code=${changeCode}&is_reverting=false`,
    );
    expect(unauthenticated.statusCode).toBe(401);
    const changed = await call('PUT', `/v1/user/email?verification_code=${changeCode}&is_reverting=false`, {
      token,
    });
    expect(changed.json()).toEqual({ status: 'ok', email: newAddress });
    expect((await userOf(token)).email).toBe(newAddress);

    const notice = await mailTo(email, 3);
    expect(notice.subject).toBe('Your Parla email was changed');
    const revert = linkIn(notice.text, `${PUBLIC_URL}/?`);
    expect(revert.searchParams.get('isReverting')).toBe('true');
    const reverted = await call(
      'PUT',
      `/v1/user/email?verification_code=${revert.searchParams.get('internalCode')}&is_reverting=true`,
    );
    expect(reverted.json()).toEqual({ status: 'ok', email });
    expect((await userOf(token)).email).toBe(email);
    expect((await call('POST', '/v1/auth/refresh', { cookie })).statusCode).toBe(401);
  });

  it('refuses a new address another account has, and tells it only after the mailbox check', async () => {
    const a = await signUp();
    await mailTo(a.email);
    const b = await signUp();
    const token = a.session.access_token;
    const withoutCode = await call('POST', '/v1/user/send-email-change-verification', {
      token,
      body: { new_email: b.email },
    });
    expect(statusOf(withoutCode)).toBe('sensitive_action_verification_required');

    await call('POST', '/v1/user/prepare-internal-verification', { token, body: { email: a.email } });
    const code =
      linkIn((await mailTo(a.email, 2)).text, `${PUBLIC_URL}/?`).searchParams.get('internalCode') ?? '';
    await call('POST', '/v1/user/verify-sensitive-action-code', { token, body: { verification_code: code } });
    const res = await call('POST', '/v1/user/send-email-change-verification', {
      token,
      body: { new_email: b.email },
      headers: { 'xi-sensitive-action-code': code },
    });
    expect(res.statusCode).toBe(409);
    expect(statusOf(res)).toBe('email_taken');
  });
});
