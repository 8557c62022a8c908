import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { linkIn, startSmtpServer } from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { workspaces } from './workspaces.tables';

/*
 * Issue 18: an invitation opened while signed out survives sign-up and email verification. The web app
 * sends the invitation page as the sign-up's continue_url; the verification mail's link carries it, so
 * verifying leads back to the invitation, which the new account accepts.
 */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
const PUBLIC_URL = 'http://parla.test:8080';
const PASSWORD = 'Correct-horse-battery-9!';

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL } });
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const client = () => `10.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const toOf = (mail: ParsedMail) => (mail.to && !Array.isArray(mail.to) ? mail.to.text : '');

function call(token: string | undefined, method: 'GET' | 'POST', url: string, body?: object) {
  return t.app.inject({
    method,
    url,
    remoteAddress: client(),
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body === undefined ? {} : { payload: body }),
  });
}

async function signUp(email: string, extra: Record<string, unknown> = {}) {
  const res = await call(undefined, 'POST', '/v1/auth/sign-up', { email, password: PASSWORD, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  const refresh = res.cookies.find((c) => c.name === 'xi_refresh');
  return {
    ...(res.json() as { access_token: string; workspace_id: string }),
    cookie: `xi_refresh=${refresh?.value}`,
  };
}

/** The newest mail to an address whose subject matches, once it arrived. */
async function mailTo(address: string, subject: RegExp): Promise<ParsedMail> {
  await expect
    .poll(() => smtp.received.filter((m) => toOf(m) === address && subject.test(m.subject ?? '')).length, {
      timeout: 5000,
    })
    .toBeGreaterThan(0);
  return smtp.received
    .filter((m) => toOf(m) === address && subject.test(m.subject ?? ''))
    .at(-1) as ParsedMail;
}

describe('an invitation opened while signed out (issue 18)', () => {
  it('is carried through sign-up and the verification mail to the invitation page, and accepted there', async () => {
    const admin = await signUp(`admin-${newId(8).toLowerCase()}@example.test`);
    await t.deps.database.db
      .update(workspaces)
      .set({ tier: 'growing_business' })
      .where(eq(workspaces.id, admin.workspace_id));
    const invitee = `new-${newId(8).toLowerCase()}@example.test`;
    const invited = await call(admin.access_token, 'POST', '/v1/workspace/invites/add', { email: invitee });
    expect(invited.json()).toEqual({ status: 'ok' });

    // The invitation mail leaves the browser: it names PUBLIC_URL.
    const inviteLink = linkIn(
      (await mailTo(invitee, /invited you/)).text,
      `${PUBLIC_URL}/app/settings/workspace-invites?`,
    );
    const code = inviteLink.searchParams.get('invite_code') ?? '';
    const invitePage = `/app/settings/workspace-invites?invite_code=${encodeURIComponent(code)}`;

    // Signed out, the visitor signs up from there: the web app sends the invitation page along.
    const pre = await call(undefined, 'POST', '/v1/user/pre-sign-up', { email: invitee, invite_code: code });
    expect(pre.json()).toMatchObject({ email_available: true });
    const session = await signUp(invitee, { continue_url: invitePage });
    expect(session.workspace_id).not.toBe(admin.workspace_id);

    // The verification link goes on to the invitation page (a same-origin path).
    const verifyLink = linkIn(
      (await mailTo(invitee, /Verify your email/)).text,
      `${PUBLIC_URL}/auth/action?`,
    );
    expect(verifyLink.searchParams.get('continueUrl')).toBe(invitePage);
    const verified = await call(undefined, 'POST', '/v1/auth/action/verify-email', {
      actionCode: verifyLink.searchParams.get('oobCode'),
      continueUrl: verifyLink.searchParams.get('continueUrl'),
      lang: 'en',
    });
    expect(verified.json()).toEqual({ status: 'ok', email: invitee });

    // Signed in (the sign-in's redirect is that page), the new account accepts with the kept code.
    const continued = new URL(verifyLink.searchParams.get('continueUrl') ?? '', PUBLIC_URL);
    const accepted = await call(session.access_token, 'POST', '/v1/user/workspace-invites/accept', {
      invite_code: continued.searchParams.get('invite_code'),
    });
    expect(accepted.json()).toEqual({ status: 'ok', workspace_id: admin.workspace_id });
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: { cookie: session.cookie },
    });
    expect(refreshed.json()).toMatchObject({ workspace_id: admin.workspace_id });
  });

  it('drops a continue_url of another site: the verification link then leads to sign-in', async () => {
    const email = `off-${newId(8).toLowerCase()}@example.test`;
    await signUp(email, { continue_url: 'https://evil.example/app/settings' });
    const link = linkIn((await mailTo(email, /Verify your email/)).text, `${PUBLIC_URL}/auth/action?`);
    expect(link.searchParams.get('continueUrl')).toBe('/app/sign-in');
  });
});
