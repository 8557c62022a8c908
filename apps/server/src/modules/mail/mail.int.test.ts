import { ListOutboxEmailsResponse, OutboxEmail } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { startSmtpServer } from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('mail over SMTP (SMTP_URL set)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Parla <accounts@parla.test>' },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('delivers text, HTML and the kind header to a real SMTP server, and keeps nothing in the outbox', async () => {
    expect(t.deps.providers.mail.kind).toBe('smtp');
    const to = `ada-${newId(8).toLowerCase()}@example.test`;
    const link = `http://localhost:8080/auth/action?mode=verifyEmail&oobCode=${newId()}`;
    await t.deps.providers.mail.send({
      to,
      subject: 'Verify your email',
      text: `Open ${link} to verify.`,
      html: `<p><a href="${link}">Verify</a></p>`,
      kind: 'verification',
    });
    await expect.poll(() => smtp.received.length).toBe(1);
    const mail = smtp.received[0];
    expect(mail?.subject).toBe('Verify your email');
    expect(mail?.from?.value).toEqual([{ name: 'Parla', address: 'accounts@parla.test' }]);
    expect(mail?.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe(to);
    expect(mail?.text).toContain(link);
    expect(mail?.html).toContain(`href="${link}"`);
    expect(mail?.headers.get('x-parla-mail-kind')).toBe('verification');

    const outbox = await t.app.inject({ method: 'GET', url: `/dev/mailbox?to=${encodeURIComponent(to)}` });
    expect(ListOutboxEmailsResponse.parse(outbox.json()).emails).toEqual([]);
  });
});

describe('mail in the local outbox (no SMTP_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('keeps each mail and serves it at /dev/mailbox, newest first, per recipient', async () => {
    expect(t.deps.providers.mail.kind).toBe('outbox');
    const to = `Grace-${newId(8)}@Example.test`;
    const first = await t.deps.providers.mail.send({
      to,
      subject: 'First',
      text: 'one',
      kind: 'notification',
    });
    const second = await t.deps.providers.mail.send({
      to,
      subject: 'Reset your password',
      text: 'two',
      kind: 'password_reset',
    });
    await t.deps.providers.mail.send({
      to: `someone-else-${newId(6)}@example.test`,
      subject: 'x',
      text: 'x',
      kind: 'notification',
    });

    const res = await t.app.inject({ method: 'GET', url: `/dev/mailbox?to=${encodeURIComponent(to)}` });
    expect(res.statusCode).toBe(200);
    const { emails } = ListOutboxEmailsResponse.parse(res.json());
    expect(emails.map((e) => e.email_id)).toEqual([second.id, first.id]);
    expect(emails[0]).toMatchObject({
      to: to.toLowerCase(),
      from: 'Parla <no-reply@localhost>',
      subject: 'Reset your password',
      text: 'two',
      html: null,
      kind: 'password_reset',
    });

    const one = await t.app.inject({ method: 'GET', url: `/dev/mailbox/${first.id}` });
    expect(OutboxEmail.parse(one.json()).subject).toBe('First');
    const missing = await t.app.inject({ method: 'GET', url: `/dev/mailbox/${newId()}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail.status).toBe('resource_not_found');
    const bad = await t.app.inject({ method: 'GET', url: '/dev/mailbox?limit=1000' });
    expect(bad.statusCode).toBe(422);
  });
});

describe('in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: 'https://parla.example' } });
  });
  afterAll(() => t.close());

  it('does not serve /dev/mailbox', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail.status).toBe('not_found');
  });
});
