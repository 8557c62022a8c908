import { ErrorResponse, ListUserMessagesResponse } from '@parla/contracts';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../../test/factories';
import { createTestApp, spendDepsOf, type TestApp } from '../../test/test-app';
import { chargeCredits } from '../credits/credits.service';
import { notifyUser } from './notifications.service';
import { userMessageEvents } from './notifications.tables';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Account = Awaited<ReturnType<typeof signUpWithApiKey>>;
const db = () => t.deps.database.db;

const call = (account: Account | undefined, method: 'GET' | 'POST', url: string, body?: object) =>
  t.app.inject({
    method,
    url,
    headers: account ? { authorization: `Bearer ${account.accessToken}` } : {},
    ...(method === 'POST' ? { payload: body ?? {} } : {}),
  });

async function messagesOf(account: Account) {
  const res = await call(account, 'GET', '/v1/user/messages');
  expect(res.statusCode).toBe(200);
  return ListUserMessagesResponse.parse(res.json());
}

const eventsOf = async (messageIds: string[]) =>
  (await db().select().from(userMessageEvents).where(inArray(userMessageEvents.messageId, messageIds))).map(
    (row) => `${row.messageId}:${row.event}`,
  );

describe('the bell’s messages', () => {
  it('lists the user’s own messages newest first with the unread count, and marks them read', async () => {
    const ada = await signUpWithApiKey(t.app);
    const bob = await signUpWithApiKey(t.app);
    const first = await notifyUser(db(), ada.userId, { severity: 'info', title: 'Welcome to Parla' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await notifyUser(db(), ada.userId, {
      severity: 'warning',
      title: 'Invitation to Acme',
      description: 'Lin invited you to the workspace Acme.',
      needsAttention: true,
      link: '/app/settings/workspace-invites',
    });
    await notifyUser(db(), bob.userId, { severity: 'success', title: 'Bob’s own' });

    const listed = await messagesOf(ada);
    expect(listed.unread_count).toBe(2);
    expect(listed.messages.map((m) => m.message_id)).toEqual([second, first]);
    expect(listed.messages[0]).toEqual({
      message_id: second,
      severity: 'warning',
      title: 'Invitation to Acme',
      description: 'Lin invited you to the workspace Acme.',
      needs_attention: true,
      create_date_unix_ms: expect.any(Number),
      has_been_read: false,
      link: '/app/settings/workspace-invites',
    });
    expect(Math.abs((listed.messages[0]?.create_date_unix_ms ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(listed.messages[1]).toMatchObject({ description: '', needs_attention: false, link: null });

    expect((await call(ada, 'POST', `/v1/user/messages/${first}/read`)).statusCode).toBe(200);
    // Again is fine, and records no second read.
    expect((await call(ada, 'POST', `/v1/user/messages/${first}/read`)).statusCode).toBe(200);
    const afterOne = await messagesOf(ada);
    expect(afterOne.unread_count).toBe(1);
    expect(afterOne.messages.find((m) => m.message_id === first)?.has_been_read).toBe(true);
    expect(await eventsOf([first])).toEqual([`${first}:read`]);

    expect(
      (await call(ada, 'POST', `/v1/user/messages/${second}/events`, { event: 'clicked' })).statusCode,
    ).toBe(200);
    expect(await eventsOf([second])).toEqual([`${second}:clicked`]);

    expect((await call(ada, 'POST', '/v1/user/messages/read-all')).statusCode).toBe(200);
    const allRead = await messagesOf(ada);
    expect(allRead.unread_count).toBe(0);
    expect(allRead.messages.every((m) => m.has_been_read)).toBe(true);
    expect((await eventsOf([second])).sort()).toEqual([`${second}:clicked`, `${second}:read`]);
    // Bob's message is his: still unread.
    expect((await messagesOf(bob)).unread_count).toBe(1);
  });

  it('answers 404 for another user’s message and changes nothing', async () => {
    const ada = await signUpWithApiKey(t.app);
    const eve = await signUpWithApiKey(t.app);
    const id = await notifyUser(db(), ada.userId, { severity: 'error', title: 'Payment failed' });
    for (const [url, body] of [
      [`/v1/user/messages/${id}/read`, {}],
      [`/v1/user/messages/${id}/events`, { event: 'dismissed' }],
      ['/v1/user/messages/no-such-message/read', {}],
    ] as const) {
      const res = await call(eve, 'POST', url, body);
      expect(res.statusCode, url).toBe(404);
      expect(ErrorResponse.parse(res.json()).detail.status).toBe('resource_not_found');
    }
    expect((await call(eve, 'POST', '/v1/user/messages/read-all')).statusCode).toBe(200);
    expect((await messagesOf(eve)).messages).toEqual([]);
    const ada1 = await messagesOf(ada);
    expect(ada1.unread_count).toBe(1);
    expect(ada1.messages[0]?.has_been_read).toBe(false);
    expect(await eventsOf([id])).toEqual([]);
  });

  it('needs a caller and a known event', async () => {
    const ada = await signUpWithApiKey(t.app);
    const id = await notifyUser(db(), ada.userId, { severity: 'info', title: 'Hello' });
    const anonymous = await call(undefined, 'GET', '/v1/user/messages');
    expect(anonymous.statusCode).toBe(401);
    expect(ErrorResponse.parse(anonymous.json()).detail.status).toBe('unauthorized');
    const unknown = await call(ada, 'POST', `/v1/user/messages/${id}/events`, { event: 'exploded' });
    expect(unknown.statusCode).toBe(422);
    expect(ErrorResponse.parse(unknown.json()).detail.status).toBe('invalid_request');
    // With the API key too: the messages are the key owner's.
    const byKey = await t.app.inject({
      method: 'GET',
      url: '/v1/user/messages',
      headers: { 'xi-api-key': ada.apiKey },
    });
    expect(ListUserMessagesResponse.parse(byKey.json()).unread_count).toBe(1);
  });

  it('refuses a link off the app', async () => {
    const ada = await signUpWithApiKey(t.app);
    await expect(
      notifyUser(db(), ada.userId, { severity: 'info', title: 'x', link: 'https://evil.example' }),
    ).rejects.toThrow(/path of the app/);
    await expect(
      notifyUser(db(), ada.userId, { severity: 'info', title: 'x', link: '//evil' }),
    ).rejects.toThrow();
  });

  it('tells the owner once when a spend passes 90% of the credits', async () => {
    const ada = await signUpWithApiKey(t.app);
    const spend = (amount: number) =>
      chargeCredits(spendDepsOf(t), { workspaceId: ada.workspaceId, amount, now: new Date() });
    await spend(8_000);
    expect((await messagesOf(ada)).messages).toEqual([]);
    await spend(1_200);
    await spend(300);
    const { messages } = await messagesOf(ada);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      severity: 'warning',
      title: 'Your credits are running low',
      description: expect.stringContaining('800 of 10,000 credits are left this period'),
      link: '/app/subscription',
    });
  });
});
