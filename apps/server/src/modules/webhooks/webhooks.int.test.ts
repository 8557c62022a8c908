import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { PREMADE_VOICES, TEST_CARDS } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerJobs } from '../../modules';
import { transcriptionCompleted, transcriptionFailed } from '../../platform/events/catalog';
import { deliverEventJob } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { JobWorker } from '../../platform/jobs/job-worker';
import { signUpWithApiKey } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { apiKeys } from '../api-keys/api-keys.tables';
import { userMessages } from '../notifications/notifications.tables';
import { workspaceMembers } from '../workspaces/workspaces.tables';
import { deliverWebhookJob } from './webhooks.jobs';

/*
 * Workspace webhooks (issue 19 item 5) through the real app, with the official client and a real HTTP
 * receiver on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_URLS lets the server call it): signatures the SDK's
 * constructEvent verifies, retries on 5xx, none on 4xx, the switch-off after failures in a row, the test
 * delivery, admin rights and refusals.
 */

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let t: TestApp;
let worker: JobWorker;
let baseUrl: string;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
/** The statuses each receiver path answers in turn (then 200). */
const answers = new Map<string, number[]>();

beforeAll(async () => {
  t = await createTestApp({
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_DELAYS_SECONDS: '0.05,0.1,0.1',
      WEBHOOK_AUTO_DISABLE_AFTER: '3',
      WEBHOOK_TIMEOUT_MS: '2000',
    },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answers.get(path)?.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status >= 400 ? 'receiver says no' : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // The test app runs no worker: this one delivers the events and the webhooks, woken by each enqueue.
  worker = new JobWorker({
    db: t.deps.database.db,
    definitions: workerJobs(t.deps, [deliverEventJob, deliverWebhookJob]),
    concurrency: 2,
    leaseSeconds: 30,
    pollIntervalMs: 50,
    logger: pino({ level: 'silent' }),
    exclusiveDatabase: false,
  });
  t.deps.queue.onEnqueued = () => worker.wake();
  await worker.start();
}, 60_000);

afterAll(async () => {
  await worker.stop(5000);
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

interface Account {
  key: string;
  token: string;
  userId: string;
  workspaceId: string;
  sdk: ElevenLabsClient;
}

async function newAccount(): Promise<Account> {
  const made = await signUpWithApiKey(t.app);
  return {
    key: made.apiKey,
    token: made.accessToken,
    userId: made.userId,
    workspaceId: made.workspaceId,
    sdk: new ElevenLabsClient({ apiKey: made.apiKey, baseUrl, maxRetries: 0 }),
  };
}

const call = (account: Pick<Account, 'key'>, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { 'xi-api-key': account.key },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

/** A receiver path of its own for one test. */
const hookPath = () => `/hook/${newId(8)}`;
const arrivals = (path: string) => received.filter((r) => r.path === path);

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function createHook(account: Account, path: string, events: string[], name = 'Receiver') {
  const created = await call(account, 'POST', '/v1/workspace/webhooks', {
    settings: { auth_type: 'hmac', name, webhook_url: `${receiverUrl}${path}` },
    events,
  });
  expect(created.statusCode).toBe(200);
  return created.json() as { webhook_id: string; webhook_secret: string };
}

const deliveriesOf = async (account: Account, id: string) =>
  (await call(account, 'GET', `/v1/workspace/webhooks/${id}/deliveries`)).json().deliveries as {
    event_type: string;
    attempt: number;
    status: string;
    status_code: number | null;
    error: string | null;
  }[];

const hookOf = async (account: Account, id: string) =>
  ((await call(account, 'GET', '/v1/workspace/webhooks')).json().webhooks as Record<string, unknown>[]).find(
    (w) => w.webhook_id === id,
  );

function completedEvent(account: Account, overrides: { webhookId?: string | null; webhook?: boolean } = {}) {
  return {
    workspaceId: account.workspaceId,
    userId: account.userId,
    transcriptionId: newId(),
    requestId: newId(),
    webhook: overrides.webhook ?? true,
    webhookId: overrides.webhookId ?? null,
    webhookMetadata: { order: 42 },
    transcription: { language_code: 'en', language_probability: 0.98, text: 'Hello there.', words: [] },
  };
}

describe('the official client', () => {
  it('creates, lists, updates and deletes; a transcription arrives signed and constructEvent verifies it', async () => {
    const account = await newAccount();
    const path = hookPath();
    const created = await account.sdk.webhooks.create({
      settings: { authType: 'hmac', name: 'Transcripts', webhookUrl: `${receiverUrl}${path}` },
    });
    expect(created.webhookId).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(created.webhookSecret).toMatch(/^wsec_[0-9a-f]{64}$/);
    const secret = created.webhookSecret as string;

    let listed = await account.sdk.webhooks.list({ includeUsages: true });
    expect(listed.webhooks).toHaveLength(1);
    expect(listed.webhooks[0]).toMatchObject({
      name: 'Transcripts',
      webhookId: created.webhookId,
      webhookUrl: `${receiverUrl}${path}`,
      isDisabled: false,
      isAutoDisabled: false,
      authType: 'hmac',
      usage: [],
      events: [],
    });
    // Subscribed to speech to text through the SDK's own update.
    const updated = await account.sdk.webhooks.update(created.webhookId, {
      isDisabled: false,
      name: 'Transcripts (all)',
      events: ['speech_to_text'],
    });
    expect(updated.status).toBe('ok');
    listed = await account.sdk.webhooks.list({ includeUsages: true });
    expect(listed.webhooks[0]).toMatchObject({
      name: 'Transcripts (all)',
      usage: [{ usageType: 'Speech to Text' }],
      events: ['speech_to_text'],
    });

    const event = completedEvent(account);
    await t.deps.events.publish(transcriptionCompleted, event);
    const [arrival] = await until(
      () => arrivals(path),
      (a) => a.length === 1,
      'the transcription',
    );
    if (!arrival) throw new Error('no arrival');
    expect(arrival.headers['content-type']).toBe('application/json');
    const header = arrival.headers['elevenlabs-signature'] as string;
    expect(header).toMatch(/^t=\d+,v0=[0-9a-f]{64}$/);
    const verified = (await account.sdk.webhooks.constructEvent(arrival.body, header, secret)) as Record<
      string,
      unknown
    >;
    expect(verified).toMatchObject({
      type: 'speech_to_text_transcription',
      data: {
        request_id: event.requestId,
        webhook_metadata: { order: 42 },
        transcription: { language_code: 'en', text: 'Hello there.' },
      },
    });
    expect(Math.abs((verified.event_timestamp as number) - Date.now() / 1000)).toBeLessThan(30);
    await expect(
      account.sdk.webhooks.constructEvent(arrival.body, header, `wsec_${'0'.repeat(64)}`),
    ).rejects.toThrow(/does not match/);
    await expect(account.sdk.webhooks.constructEvent(`${arrival.body} `, header, secret)).rejects.toThrow(
      /does not match/,
    );

    // Without webhook=true, speech to text's webhooks get nothing.
    await t.deps.events.publish(transcriptionCompleted, completedEvent(account, { webhook: false }));
    const deleted = await account.sdk.webhooks.delete(created.webhookId);
    expect(deleted.status).toBe('ok');
    expect((await account.sdk.webhooks.list()).webhooks).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(arrivals(path)).toHaveLength(1);
  });
});

describe('events', () => {
  it('delivers api_key.created when a member makes a key, in the catalogue’s name and snake_case fields', async () => {
    const account = await newAccount();
    const path = hookPath();
    await createHook(account, path, ['api_key.created']);
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/user/api-keys',
      headers: { authorization: `Bearer ${account.token}` },
      payload: { name: 'CI' },
    });
    const keyId = made.json().key_id as string;
    const [arrival] = await until(
      () => arrivals(path),
      (a) => a.length === 1,
      'api_key.created',
    );
    expect(JSON.parse(arrival?.body ?? '{}')).toMatchObject({
      type: 'api_key.created',
      data: { key_id: keyId, user_id: account.userId, workspace_id: account.workspaceId },
    });
  });

  it('delivers generation.completed, voice.added, voice.removed, workspace.member_removed and subscription.changed as they happen', async () => {
    const account = await newAccount();
    const path = hookPath();
    const kinds = [
      'generation.completed',
      'voice.added',
      'voice.removed',
      'workspace.member_removed',
      'subscription.changed',
    ];
    await createHook(account, path, kinds);
    // A generation kept in the history.
    const voiceId = PREMADE_VOICES[0]?.voice_id ?? '';
    const spoken = await call(account, 'POST', `/v1/text-to-speech/${voiceId}`, { text: 'Hello there.' });
    expect(spoken.statusCode).toBe(200);
    // A library voice added, then removed.
    const [shared] = (await account.sdk.voices.getShared({ pageSize: 1 })).voices;
    const added = await account.sdk.voices.share(shared?.publicOwnerId ?? '', shared?.voiceId ?? '', {
      newName: 'Borrowed',
    });
    expect((await call(account, 'DELETE', `/v1/voices/${added.voiceId}`)).statusCode).toBe(200);
    // A member removed (seated directly: the invitation flow is the workspaces module's test).
    const member = await signUpWithApiKey(t.app);
    await t.deps.database.db
      .insert(workspaceMembers)
      .values({ workspaceId: account.workspaceId, userId: member.userId, role: 'member' });
    const removed = await call(account, 'POST', '/v1/workspace/members/remove', { email: member.email });
    expect(removed.statusCode).toBe(200);
    // A plan bought with the built-in test provider's card.
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/create-checkout-session',
      headers: { authorization: `Bearer ${account.token}` },
      payload: { subscription_type: 'creator', billing_period: 'monthly_period', currency: 'usd' },
    });
    const sessionId = String(checkout.json().url).split('/').at(-1);
    const paid = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/sessions/${sessionId}/card`,
      payload: {
        card_number: TEST_CARDS.succeeds,
        exp_month: 12,
        exp_year: 2030,
        cvc: '123',
        cardholder_name: 'A',
      },
    });
    expect(paid.statusCode).toBe(200);

    const bodies = (await until(
      () => arrivals(path).map((a) => JSON.parse(a.body) as { type: string; data: Record<string, unknown> }),
      (all) => kinds.every((kind) => all.some((b) => b.type === kind)),
      'the five events',
    )) as { type: string; data: Record<string, unknown> }[];
    const of = (type: string) => bodies.filter((b) => b.type === type).map((b) => b.data);
    expect(of('generation.completed')).toContainEqual(
      expect.objectContaining({ kind: 'text_to_speech', credits: 12, workspace_id: account.workspaceId }),
    );
    expect(of('generation.completed')[0]?.history_item_id).toBe(spoken.headers['history-item-id']);
    expect(of('voice.added')).toContainEqual(
      expect.objectContaining({ voice_id: added.voiceId, source: 'library' }),
    );
    expect(of('voice.removed')).toEqual([expect.objectContaining({ voice_id: added.voiceId })]);
    expect(of('workspace.member_removed')).toEqual([expect.objectContaining({ user_id: member.userId })]);
    expect(of('subscription.changed')).toEqual([
      expect.objectContaining({ previous_tier: 'free', tier: 'creator', workspace_id: account.workspaceId }),
    ]);
  });

  it('sends a transcription only to the webhook the request named, and a failure in our form', async () => {
    const account = await newAccount();
    const [first, second] = [hookPath(), hookPath()];
    await createHook(account, first, ['speech_to_text']);
    const named = await createHook(account, second, []);
    await t.deps.events.publish(
      transcriptionCompleted,
      completedEvent(account, { webhookId: named.webhook_id }),
    );
    await until(
      () => arrivals(second),
      (a) => a.length === 1,
      'the named webhook',
    );
    await t.deps.events.publish(transcriptionFailed, {
      workspaceId: account.workspaceId,
      userId: account.userId,
      transcriptionId: 'tr1',
      requestId: 'rq1',
      webhook: true,
      webhookId: null,
      webhookMetadata: null,
      error: 'The file holds no audio.',
    });
    const [failure] = await until(
      () => arrivals(first),
      (a) => a.length === 1,
      'the failure',
    );
    expect(JSON.parse(failure?.body ?? '{}')).toMatchObject({
      type: 'transcription.failed',
      data: { transcription_id: 'tr1', request_id: 'rq1', error: 'The file holds no audio.' },
    });
    expect(JSON.parse(failure?.body ?? '{}').data).not.toHaveProperty('webhook');
    expect(arrivals(second)).toHaveLength(1);
  });

  it('keeps other workspaces’ events to themselves', async () => {
    const [a, b] = [await newAccount(), await newAccount()];
    const path = hookPath();
    await createHook(a, path, ['speech_to_text', 'transcription.completed']);
    await t.deps.events.publish(transcriptionCompleted, completedEvent(b));
    await t.deps.events.publish(transcriptionCompleted, completedEvent(a));
    await until(
      () => arrivals(path),
      (x) => x.length >= 1,
      'a’s event',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // One delivery for a's event (the public form wins over the catalogue's for the same webhook), none for b's.
    expect(arrivals(path)).toHaveLength(1);
    expect(JSON.parse(arrivals(path)[0]?.body ?? '{}').type).toBe('speech_to_text_transcription');
  });
});

describe('the workspace document', () => {
  it('lists the active webhooks told of transcriptions as speech_to_text_webhook_ids', async () => {
    const account = await newAccount();
    const stt = await createHook(account, hookPath(), ['speech_to_text']);
    await createHook(account, hookPath(), ['voice.added']);
    const idsOf = async () =>
      (await call(account, 'GET', '/v1/workspace')).json().speech_to_text_webhook_ids as string[];
    expect(await idsOf()).toEqual([stt.webhook_id]);
    await call(account, 'PATCH', `/v1/workspace/webhooks/${stt.webhook_id}`, { is_disabled: true });
    expect(await idsOf()).toEqual([]);
  });
});

describe('delivery', () => {
  it('retries a 500 with backoff until the receiver takes it, and logs each attempt', async () => {
    const account = await newAccount();
    const path = hookPath();
    answers.set(path, [500, 503]);
    const hook = await createHook(account, path, ['transcription.completed']);
    await t.deps.events.publish(transcriptionCompleted, completedEvent(account, { webhook: false }));
    await until(
      () => arrivals(path),
      (a) => a.length === 3,
      'three attempts',
    );
    const log = await until(
      () => deliveriesOf(account, hook.webhook_id),
      (l) => l.length === 3,
      'the log',
    );
    expect(log.map((d) => [d.attempt, d.status, d.status_code])).toEqual([
      [3, 'succeeded', 200],
      [2, 'retrying', 503],
      [1, 'retrying', 500],
    ]);
    expect(log[2]?.error).toContain('500');
    // Each attempt is signed afresh; the same body.
    const bodies = new Set(arrivals(path).map((a) => a.body));
    expect(bodies.size).toBe(1);
    expect(await hookOf(account, hook.webhook_id)).toMatchObject({
      most_recent_failure_error_code: 503,
      consecutive_failures: 0,
      is_auto_disabled: false,
    });
  });

  it('does not retry a 4xx', async () => {
    const account = await newAccount();
    const path = hookPath();
    answers.set(path, [404, 404]);
    const hook = await createHook(account, path, ['transcription.completed']);
    await t.deps.events.publish(transcriptionCompleted, completedEvent(account, { webhook: false }));
    await until(
      () => deliveriesOf(account, hook.webhook_id),
      (l) => l.length === 1,
      'the log',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(arrivals(path)).toHaveLength(1);
    const log = await deliveriesOf(account, hook.webhook_id);
    expect(log).toMatchObject([{ attempt: 1, status: 'failed', status_code: 404 }]);
    expect(await hookOf(account, hook.webhook_id)).toMatchObject({ consecutive_failures: 1 });
  });

  it('switches a webhook off after 3 failed deliveries in a row, tells the admins, and enabling it resets it', async () => {
    const account = await newAccount();
    const path = hookPath();
    answers.set(path, [410, 410, 410, 410]);
    const hook = await createHook(account, path, ['transcription.completed'], 'Flaky');
    for (let i = 1; i <= 3; i++) {
      await t.deps.events.publish(transcriptionCompleted, completedEvent(account, { webhook: false }));
      await until(
        () => deliveriesOf(account, hook.webhook_id),
        (l) => l.length === i,
        `delivery ${i}`,
      );
    }
    expect(await hookOf(account, hook.webhook_id)).toMatchObject({
      is_auto_disabled: true,
      is_disabled: false,
      most_recent_failure_error_code: 410,
      consecutive_failures: 3,
    });
    const messages = await until(
      () => t.deps.database.db.select().from(userMessages).where(eq(userMessages.userId, account.userId)),
      (rows) => rows.some((m) => m.title.includes('Flaky')),
      'the admin’s message',
    );
    expect(messages.find((m) => m.title.includes('Flaky'))?.link).toBe('/app/developers/webhooks');
    // Switched off: the next event is not sent.
    await t.deps.events.publish(transcriptionCompleted, completedEvent(account, { webhook: false }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(arrivals(path)).toHaveLength(3);

    const enabled = await call(account, 'PATCH', `/v1/workspace/webhooks/${hook.webhook_id}`, {
      is_disabled: false,
    });
    expect(enabled.statusCode).toBe(200);
    expect(await hookOf(account, hook.webhook_id)).toMatchObject({
      is_auto_disabled: false,
      consecutive_failures: 0,
    });
    await t.deps.events.publish(transcriptionCompleted, completedEvent(account, { webhook: false }));
    await until(
      () => arrivals(path),
      (a) => a.length === 4,
      'the delivery after enabling',
    );
  });

  it('sends a signed test event and answers how the receiver took it', async () => {
    const account = await newAccount();
    const path = hookPath();
    answers.set(path, [200, 503]);
    const hook = await createHook(account, path, []);
    const ok = await call(account, 'POST', `/v1/workspace/webhooks/${hook.webhook_id}/test`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, status_code: 200, error: null });
    const arrival = arrivals(path)[0] as Received;
    const verified = await account.sdk.webhooks.constructEvent(
      arrival.body,
      arrival.headers['elevenlabs-signature'] as string,
      hook.webhook_secret,
    );
    expect(verified).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.webhook_id } });
    const failed = await call(account, 'POST', `/v1/workspace/webhooks/${hook.webhook_id}/test`);
    expect(failed.json()).toMatchObject({ success: false, status_code: 503 });
    expect(failed.json().error).toContain('503');
    // Logged, but a test never counts towards the switch-off.
    expect((await deliveriesOf(account, hook.webhook_id)).map((d) => d.status)).toEqual([
      'failed',
      'succeeded',
    ]);
    expect(await hookOf(account, hook.webhook_id)).toMatchObject({ consecutive_failures: 0 });
  });

  it('sends the webhook’s own headers, and answers a receiver that is down with a clear error', async () => {
    const account = await newAccount();
    const path = hookPath();
    const created = await call(account, 'POST', '/v1/workspace/webhooks', {
      settings: {
        auth_type: 'hmac',
        name: 'With headers',
        webhook_url: `${receiverUrl}${path}`,
        request_headers: { 'X-Token': 'abc123' },
      },
    });
    const id = created.json().webhook_id as string;
    await call(account, 'POST', `/v1/workspace/webhooks/${id}/test`);
    expect(arrivals(path)[0]?.headers['x-token']).toBe('abc123');
    expect(await hookOf(account, id)).toMatchObject({ request_header_names: ['X-Token'] });

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await call(account, 'PATCH', `/v1/workspace/webhooks/${id}`, {
      webhook_url: `http://127.0.0.1:${port}/x`,
    });
    const down = await call(account, 'POST', `/v1/workspace/webhooks/${id}/test`);
    expect(down.json()).toMatchObject({ success: false, status_code: null });
    expect(down.json().error).toContain('ECONNREFUSED');
  });
});

describe('rights and refusals', () => {
  it('lets only admins manage webhooks: a member lists them and gets 403 for the rest', async () => {
    const owner = await newAccount();
    const hook = await createHook(owner, hookPath(), []);
    const member = await newAccount();
    await t.deps.database.db
      .insert(workspaceMembers)
      .values({ workspaceId: owner.workspaceId, userId: member.userId, role: 'member' });
    // The member's key now works in the owner's workspace.
    await t.deps.database.db
      .update(apiKeys)
      .set({ workspaceId: owner.workspaceId })
      .where(eq(apiKeys.userId, member.userId));
    const list = await call(member, 'GET', '/v1/workspace/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.json().webhooks).toHaveLength(1);
    const id = hook.webhook_id;
    for (const [method, url, body] of [
      ['GET', '/v1/workspace/webhooks?include_usages=true', undefined],
      [
        'POST',
        '/v1/workspace/webhooks',
        { settings: { auth_type: 'hmac', name: 'x', webhook_url: receiverUrl } },
      ],
      ['PATCH', `/v1/workspace/webhooks/${id}`, { is_disabled: true }],
      ['DELETE', `/v1/workspace/webhooks/${id}`, undefined],
      ['POST', `/v1/workspace/webhooks/${id}/test`, undefined],
      ['GET', `/v1/workspace/webhooks/${id}/deliveries`, undefined],
    ] as const) {
      const answer = await call(member, method, url, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
      expect(answer.json().detail).toEqual({
        status: 'forbidden',
        message: 'Only workspace admins can manage webhooks.',
      });
    }
    expect(await hookOf(owner, id)).toMatchObject({ is_disabled: false });
  });

  it('refuses private and loopback addresses unless the operator allows them', async () => {
    const account = await newAccount();
    const settings = t.deps.config.webhooks;
    settings.allowPrivateUrls = false;
    try {
      for (const url of [
        `${receiverUrl}/hook`,
        'http://10.1.2.3/hook',
        'http://[::1]:8080/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://localhost:9/hook',
        'http://[::ffff:127.0.0.1]/hook',
      ]) {
        const refused = await call(account, 'POST', '/v1/workspace/webhooks', {
          settings: { auth_type: 'hmac', name: 'Inside', webhook_url: url },
        });
        expect(refused.statusCode, url).toBe(422);
        // It says how this is allowed, in words a workspace admin can pass on (issue 26 item 7).
        expect(refused.json().detail).toMatchObject({
          status: 'invalid_request',
          message: expect.stringMatching(
            /^The webhook URL points at a private, loopback or reserved address \(.+\)\. This server calls only public internet addresses unless whoever runs it allows private ones: if your receiver is on your own network, ask the server's operator to set WEBHOOK_ALLOW_PRIVATE_URLS=true\.$/,
          ),
        });
        expect(refused.json().detail.errors[0].loc).toEqual(['body', 'settings', 'webhook_url']);
      }
      // Changing a webhook's URL is refused the same way, on its own field.
      settings.allowPrivateUrls = true;
      const saved = await createHook(account, hookPath(), []);
      settings.allowPrivateUrls = false;
      const moved = await call(account, 'PATCH', `/v1/workspace/webhooks/${saved.webhook_id}`, {
        webhook_url: 'http://10.1.2.3/hook',
      });
      expect(moved.statusCode).toBe(422);
      expect(moved.json().detail.message).toMatch(/WEBHOOK_ALLOW_PRIVATE_URLS=true/);
      expect(moved.json().detail.errors[0].loc).toEqual(['body', 'webhook_url']);
      await call(account, 'DELETE', `/v1/workspace/webhooks/${saved.webhook_id}`);
      // A webhook saved while they were allowed is refused at delivery too, and the attempt is not retried.
      settings.allowPrivateUrls = true;
      const hook = await createHook(account, hookPath(), []);
      settings.allowPrivateUrls = false;
      const test = await call(account, 'POST', `/v1/workspace/webhooks/${hook.webhook_id}/test`);
      expect(test.json()).toMatchObject({ success: false, status_code: null });
      expect(test.json().error).toMatch(
        /private, loopback or reserved address .*WEBHOOK_ALLOW_PRIVATE_URLS=true/,
      );
    } finally {
      settings.allowPrivateUrls = true;
    }
    expect((await call(account, 'GET', '/v1/workspace/webhooks')).json().webhooks).toHaveLength(1);
  });

  it('answers bad input with clear errors and changes nothing', async () => {
    const account = await newAccount();
    const other = await newAccount();
    const hook = await createHook(account, hookPath(), ['voice.added']);
    const create = (settings: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      call(account, 'POST', '/v1/workspace/webhooks', {
        settings: { auth_type: 'hmac', name: 'Hook', webhook_url: `${receiverUrl}/ok`, ...settings },
        ...extra,
      });
    const cases: [
      Promise<{ statusCode: number; json(): { detail: { status: string; message: string } } }>,
      number,
      RegExp,
    ][] = [
      [create({ auth_type: 'oauth2' }), 422, /Only hmac/],
      [create({ auth_type: 'basic' }), 422, /./],
      [create({ name: '   ' }), 422, /Give the webhook a name/],
      [create({ webhook_url: 'not a url' }), 422, /not a valid address/],
      [create({ webhook_url: 'ftp://example.com/hook' }), 422, /must start with https/],
      [create({ webhook_url: 'https://user:pw@example.com/hook' }), 422, /user name or password/],
      [create({ webhook_url: 'https://no-such-host.invalid/hook' }), 422, /could not be found/],
      [create({ webhook_url: `https://example.com/${'a'.repeat(2100)}` }), 422, /2,048/],
      [create({ request_headers: { 'Content-Type': 'text/plain' } }), 422, /set by the server/],
      [create({ request_headers: { 'Bad Header': 'x' } }), 422, /header name/],
      [create({ request_headers: { 'X-A': 'line\nbreak' } }), 422, /header value/],
      [create({}, { events: ['voice.renamed'] }), 422, /./],
      [create({}, { events: ['voice.added', 'voice.added'] }), 422, /once/],
      [call(account, 'PATCH', `/v1/workspace/webhooks/${hook.webhook_id}`, { is_disabled: 'yes' }), 422, /./],
      [call(account, 'PATCH', `/v1/workspace/webhooks/${hook.webhook_id}`, { name: '' }), 422, /./],
      [call(account, 'PATCH', '/v1/workspace/webhooks/nope', { name: 'x' }), 404, /webhook was not found/],
      [call(other, 'PATCH', `/v1/workspace/webhooks/${hook.webhook_id}`, { name: 'x' }), 404, /not found/],
      [call(other, 'DELETE', `/v1/workspace/webhooks/${hook.webhook_id}`), 404, /not found/],
      [call(other, 'POST', `/v1/workspace/webhooks/${hook.webhook_id}/test`), 404, /not found/],
      [call(other, 'GET', `/v1/workspace/webhooks/${hook.webhook_id}/deliveries`), 404, /not found/],
    ];
    for (const [answer, status, message] of cases) {
      const reply = await answer;
      expect(reply.statusCode, JSON.stringify(reply.json())).toBe(status);
      expect(reply.json().detail.message).toMatch(message);
    }
    const webhooks = (await call(account, 'GET', '/v1/workspace/webhooks')).json().webhooks;
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]).toMatchObject({ name: 'Receiver', events: ['voice.added'], is_disabled: false });
  });
});
