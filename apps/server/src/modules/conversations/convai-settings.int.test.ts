import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { workerJobs } from '../../modules';
import { deliverEventJob } from '../../platform/events/event-bus';
import { JobWorker } from '../../platform/jobs/job-worker';
import { newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { deliverWebhookJob } from '../webhooks/webhooks.jobs';

/*
 * The workspace's Conversational AI settings (issue 28, settings): the official SDK's
 * `conversationalAi.settings`, `dashboard.settings`, `analytics.liveCount`, `users.list` and
 * `llmUsage.calculate` against the real app (no language model: knowledge-base mode, text-only agents, so
 * no engine runs), and what the settings change: the initiation webhook asked at a conversation's start
 * (a local 127.0.0.1 receiver), the post-call event sent to the chosen webhook only; bad input refused in
 * the API's error shape.
 */

let t: TestApp;
let baseUrl: string;
let a: SpeechAccount;
let b: SpeechAccount;
let worker: JobWorker;
let receiver: http.Server;
let receiverUrl: string;
const arrivals: { url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
/** What the receiver answers at /initiation. */
let initiationAnswer: { status: number; body: string } = { status: 200, body: '{}' };

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      arrivals.push({ url: request.url ?? '', headers: request.headers, body });
      if (request.url === '/initiation') {
        response.writeHead(initiationAnswer.status, { 'content-type': 'application/json' });
        response.end(initiationAnswer.body);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await new Promise((resolve) => receiver.once('listening', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await createTestApp({
    env: {
      LLM_PROVIDER: 'none',
      AGENT_TOOL_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // The test app runs no worker: this one delivers the post-call webhook, woken by each enqueue.
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
  a = await newSpeechAccount(t.app, baseUrl);
  b = await newSpeechAccount(t.app, baseUrl);
}, 120_000);

afterAll(async () => {
  await worker?.stop(5000);
  await t?.close();
  receiver?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Message = Record<string, unknown> & { type: string };

/** A plain client of the conversation socket (the protocol @elevenlabs/client speaks). */
function converse(agentId: string, key: string, init: unknown) {
  const ws = new WebSocket(
    `${baseUrl.replace('http', 'ws')}/v1/convai/conversation?agent_id=${agentId}`,
    ['convai'],
    { headers: { 'xi-api-key': key } },
  );
  const messages: Message[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Message;
    messages.push(message);
    if (message.type === 'ping')
      ws.send(
        JSON.stringify({ type: 'pong', event_id: (message.ping_event as { event_id: number }).event_id }),
      );
  });
  ws.on('error', () => undefined);
  ws.on('open', () => ws.send(JSON.stringify(init)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const next = async (type: string) => {
    await expect.poll(() => messages.some((m) => m.type === type), { timeout: 20_000 }).toBe(true);
    return messages.find((m) => m.type === type) as Message;
  };
  return { ws, messages, closed, next };
}

async function raw(account: SpeechAccount, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'xi-api-key': account.key,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const textAgent = (account: SpeechAccount, firstMessage: string, fromWebhook = false) =>
  account.sdk.conversationalAi.agents.create({
    conversationConfig: { agent: { firstMessage }, conversation: { textOnly: true } },
    ...(fromWebhook
      ? {
          platformSettings: {
            overrides: {
              enableConversationInitiationClientDataFromWebhook: true,
              conversationConfigOverride: { agent: { firstMessage: true } },
            },
          },
        }
      : {}),
  });

describe('the workspace settings through the official SDK', () => {
  it('answers the defaults, keeps what PATCH sets, and says what each setting does here', async () => {
    const initial = await a.sdk.conversationalAi.settings.get();
    expect(initial.conversationInitiationClientDataWebhook ?? null).toBeNull();
    expect(initial.webhooks?.postCallWebhookId ?? null).toBeNull();
    expect(initial.ragRetentionPeriodDays).toBe(10);

    const secret = await a.sdk.conversationalAi.secrets.create({ name: 'Init key', value: 'sk-init-42' });
    const hook = await a.sdk.webhooks.create({
      settings: { authType: 'hmac', name: 'Chosen', webhookUrl: `${receiverUrl}/chosen` },
    });
    const updated = await a.sdk.conversationalAi.settings.update({
      conversationInitiationClientDataWebhook: {
        url: `${receiverUrl}/initiation`,
        requestHeaders: { 'X-Shop': 'north', Authorization: { secretId: secret.secretId } },
      },
      webhooks: { postCallWebhookId: hook.webhookId, excludeTranscript: true },
      ragRetentionPeriodDays: 20,
    });
    expect(updated.conversationInitiationClientDataWebhook?.url).toBe(`${receiverUrl}/initiation`);
    expect(updated.webhooks?.postCallWebhookId).toBe(hook.webhookId);
    expect(updated.ragRetentionPeriodDays).toBe(20);
    // The secret stays a reference: its value is never answered.
    const read = await raw(a, 'GET', '/v1/convai/settings');
    expect(JSON.stringify(read.json)).not.toContain('sk-init-42');
    expect(read.json.conversation_initiation_client_data_webhook).toEqual({
      url: `${receiverUrl}/initiation`,
      request_headers: { 'X-Shop': 'north', Authorization: { secret_id: secret.secretId } },
    });
    expect((read.json.notes as Record<string, string>).rag_retention_period_days).toMatch(/no effect here/);
    // A partial PATCH changes only what it names.
    await a.sdk.conversationalAi.settings.update({ webhooks: { sendAudio: true } });
    const after = await a.sdk.conversationalAi.settings.get();
    expect(after.webhooks).toMatchObject({
      postCallWebhookId: hook.webhookId,
      excludeTranscript: true,
      sendAudio: true,
    });
    // Another workspace sees its own defaults.
    expect((await b.sdk.conversationalAi.settings.get()).webhooks?.postCallWebhookId ?? null).toBeNull();
    // Back to no webhook choice, so the other tests start clean.
    await raw(a, 'PATCH', '/v1/convai/settings', {
      webhooks: { post_call_webhook_id: null, exclude_transcript: false },
      conversation_initiation_client_data_webhook: null,
    });
  });

  it('refuses bad settings with the API’s error shape and changes nothing', async () => {
    const before = await raw(a, 'GET', '/v1/convai/settings');
    const bWebhook = await b.sdk.webhooks.create({
      settings: { authType: 'hmac', name: 'B', webhookUrl: `${receiverUrl}/b` },
    });
    const cases: [unknown, number, RegExp][] = [
      [{ rag_retention_period_days: 31 }, 422, /rag_retention_period_days/],
      [{ rag_retention_period_days: 1.5 }, 422, /rag_retention_period_days/],
      [{ conversation_initiation_client_data_webhook: { url: 'ftp://example.com/x' } }, 422, /http\(s\) URL/],
      [
        { conversation_initiation_client_data_webhook: { url: 'http://user:pw@127.0.0.1/x' } },
        422,
        /credentials/,
      ],
      [
        {
          conversation_initiation_client_data_webhook: {
            url: `${receiverUrl}/i`,
            request_headers: { Host: 'x' },
          },
        },
        422,
        /set by the call itself/,
      ],
      [
        {
          conversation_initiation_client_data_webhook: {
            url: `${receiverUrl}/i`,
            request_headers: { A: { secret_id: 'sec_missing' } },
          },
        },
        422,
        /not one of this workspace's secrets/,
      ],
      [{ webhooks: { post_call_webhook_id: bWebhook.webhookId } }, 404, /webhook was not found/],
      [{ webhooks: { events: ['everything'] } }, 422, /events/],
      [{ ragRetentionPeriodDays: 5 }, 422, /ragRetentionPeriodDays|Unrecognized/i],
      [{ default_livekit_stack: 'fast' }, 422, /default_livekit_stack/],
    ];
    for (const [body, status, message] of cases) {
      const response = await raw(a, 'PATCH', '/v1/convai/settings', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      const detail = response.json.detail as { status: string; message: string };
      expect(typeof detail.status).toBe('string');
      expect(JSON.stringify(response.json), JSON.stringify(body)).toMatch(message);
    }
    expect((await raw(a, 'GET', '/v1/convai/settings')).json).toEqual(before.json);
  });

  it('keeps the dashboard’s charts', async () => {
    expect((await a.sdk.conversationalAi.dashboard.settings.get()).charts ?? []).toEqual([]);
    const charts = await a.sdk.conversationalAi.dashboard.settings.update({
      charts: [
        { type: 'call_success', name: 'Calls that worked' },
        { type: 'criteria', name: 'Answered', criteriaId: 'answered' },
      ],
    });
    expect(charts.charts).toEqual([
      { type: 'call_success', name: 'Calls that worked' },
      { type: 'criteria', name: 'Answered', criteriaId: 'answered' },
    ]);
    const bad = await raw(a, 'PATCH', '/v1/convai/settings/dashboard', {
      charts: [{ type: 'criteria', name: 'No id' }],
    });
    expect(bad.status).toBe(422);
    const tooMany = await raw(a, 'PATCH', '/v1/convai/settings/dashboard', {
      charts: Array.from({ length: 21 }, (_, i) => ({ type: 'call_success', name: `c${i}` })),
    });
    expect(tooMany.status).toBe(422);
    expect((await a.sdk.conversationalAi.dashboard.settings.get()).charts).toHaveLength(2);
    expect((await b.sdk.conversationalAi.dashboard.settings.get()).charts ?? []).toEqual([]);
  });

  it('prices the language model honestly: nothing per minute, the plan’s minutes are what is charged', async () => {
    const prices = await a.sdk.conversationalAi.llmUsage.calculate({
      promptLength: 4000,
      numberOfPages: 3,
      ragEnabled: true,
    });
    expect(prices.llmPrices).toEqual([
      { llm: 'none (knowledge-base mode)', pricePerMinute: 0, pricePerMessage: 0 },
    ]);
    const rawPrices = await raw(a, 'POST', '/v1/convai/llm-usage/calculate', {
      prompt_length: 4000,
      number_of_pages: 3,
      rag_enabled: true,
    });
    expect(rawPrices.json).toMatchObject({
      conversation_minutes: { included_per_period: 15, extra_minute_usd: null },
      // (4,000 characters of prompt + three 1,000-character passages) / 4 characters a token.
      estimated_prompt_tokens_per_message: 1750,
    });
    expect(rawPrices.json.note).toMatch(/does not charge for the language model/);
    const agent = await textAgent(a, '');
    const forAgent = await a.sdk.conversationalAi.agents.llmUsage.calculate(agent.agentId, {});
    expect(forAgent.llmPrices[0]?.pricePerMinute).toBe(0);
    // Another workspace's agent is not found; bad numbers are refused.
    expect((await raw(b, 'POST', `/v1/convai/agent/${agent.agentId}/llm-usage/calculate`, {})).status).toBe(
      404,
    );
    for (const body of [
      { prompt_length: -1, number_of_pages: 0, rag_enabled: false },
      { prompt_length: 10, number_of_pages: 0 },
      { prompt_length: 'long', number_of_pages: 0, rag_enabled: false },
    ])
      expect((await raw(a, 'POST', '/v1/convai/llm-usage/calculate', body)).status).toBe(422);
  });
});

describe('what the settings change in conversations', () => {
  it('asks the initiation webhook at the start (secrets opened) and applies its variables and overrides', async () => {
    const secret = await a.sdk.conversationalAi.secrets.create({ name: 'Init', value: 'sk-init-7' });
    await raw(a, 'PATCH', '/v1/convai/settings', {
      conversation_initiation_client_data_webhook: {
        url: `${receiverUrl}/initiation`,
        request_headers: { 'x-shop': 'north', authorization: { secret_id: secret.secretId } },
      },
    });
    initiationAnswer = {
      status: 200,
      body: JSON.stringify({
        type: 'conversation_initiation_client_data',
        dynamic_variables: { customer: 'Ada', tier: 'gold' },
        conversation_config_override: { agent: { first_message: 'Welcome back {{customer}} ({{tier}}).' } },
      }),
    };
    const agent = await textAgent(a, 'Hello.', true);
    const c = converse(agent.agentId, a.key, {
      type: 'conversation_initiation_client_data',
      user_id: 'customer-ada',
      // The page's value loses to the workspace's server.
      dynamic_variables: { customer: 'Mallory' },
    });
    const greeting = (await c.next('agent_response')).agent_response_event as { agent_response: string };
    expect(greeting.agent_response).toBe('Welcome back Ada (gold).');
    const call = arrivals.filter((r) => r.url === '/initiation').at(-1);
    expect(call?.headers.authorization).toBe('sk-init-7');
    expect(call?.headers['x-shop']).toBe('north');
    expect(JSON.parse(call?.body ?? '{}')).toEqual({
      agent_id: agent.agentId,
      user_id: 'customer-ada',
      caller_id: null,
      called_number: null,
      call_sid: null,
    });
    // An agent that does not ask for it never calls the webhook.
    const before = arrivals.filter((r) => r.url === '/initiation').length;
    const plain = await textAgent(a, 'Hi {{customer}}.');
    const d = converse(plain.agentId, a.key, {
      type: 'conversation_initiation_client_data',
      dynamic_variables: { customer: 'Bob' },
    });
    expect(
      ((await d.next('agent_response')).agent_response_event as { agent_response: string }).agent_response,
    ).toBe('Hi Bob.');
    expect(arrivals.filter((r) => r.url === '/initiation').length).toBe(before);
    c.ws.close(1000);
    d.ws.close(1000);
    await Promise.all([c.closed, d.closed]);
  }, 60_000);

  it('ends the conversation with the protocol’s error when the webhook fails or answers nonsense (limits: initiation-webhook.test.ts)', async () => {
    const agent = await textAgent(a, 'Hello.', true);
    for (const [answer, why] of [
      [{ status: 500, body: '{"error":"down"}' }, /answered HTTP 500/],
      [{ status: 200, body: 'not json' }, /not JSON/],
      [{ status: 200, body: JSON.stringify({ dynamic_variables: { x: { deep: 1 } } }) }, /dynamic_variables/],
    ] as const) {
      initiationAnswer = answer;
      const c = converse(agent.agentId, a.key, { type: 'conversation_initiation_client_data' });
      const closed = await c.closed;
      const error = c.messages.find((m) => m.type === 'error')?.error_event as
        | { error_type: string; message: string }
        | undefined;
      expect(closed.code).toBe(1011);
      expect(error?.error_type).toBe('internal_error');
      expect(error?.message).toMatch(/conversation initiation webhook/);
      expect(error?.message).toMatch(why);
      expect(c.messages.some((m) => m.type === 'conversation_initiation_metadata')).toBe(false);
    }
    // No webhook set at all: a clear refusal too.
    await raw(a, 'PATCH', '/v1/convai/settings', { conversation_initiation_client_data_webhook: null });
    const c = converse(agent.agentId, a.key, { type: 'conversation_initiation_client_data' });
    await c.closed;
    expect(JSON.stringify(c.messages)).toMatch(/none is set/);
    initiationAnswer = { status: 200, body: '{}' };
  }, 60_000);

  it('sends the post-call event to the chosen webhook only, and counts users and live conversations', async () => {
    const subscribe = async (name: string) => {
      const hook = await a.sdk.webhooks.create({
        settings: { authType: 'hmac', name, webhookUrl: `${receiverUrl}/${name}` },
      });
      return hook.webhookId;
    };
    const first = await subscribe('first');
    const chosen = await subscribe('chosen-one');
    // `first` subscribes to post-call events; `chosen-one` does not, and is chosen in the settings.
    const subscribed = await raw(a, 'PATCH', `/v1/workspace/webhooks/${first}`, {
      is_disabled: false,
      name: 'first',
      events: ['post_call_transcription'],
    });
    expect(subscribed.status).toBe(200);
    const agent = await textAgent(a, 'Hello.');
    const talk = async (userId: string) => {
      const c = converse(agent.agentId, a.key, {
        type: 'conversation_initiation_client_data',
        user_id: userId,
      });
      await c.next('conversation_initiation_metadata');
      return c;
    };

    // No choice: the subscribed webhook gets it.
    let c = await talk('ada');
    // This test's agent (the earlier tests' conversations may still be finishing on the server).
    expect((await a.sdk.conversationalAi.analytics.liveCount.get({ agentId: agent.agentId })).count).toBe(1);
    expect(
      (await a.sdk.conversationalAi.analytics.liveCount.get({ agentIds: [agent.agentId, 'agent_other'] }))
        .count,
    ).toBe(1);
    expect((await a.sdk.conversationalAi.analytics.liveCount.get({ agentId: 'agent_other' })).count).toBe(0);
    expect((await b.sdk.conversationalAi.analytics.liveCount.get()).count).toBe(0);
    c.ws.close(1000);
    await c.closed;
    await expect.poll(() => arrivals.filter((r) => r.url === '/first').length, { timeout: 20_000 }).toBe(1);
    await expect
      .poll(async () => (await a.sdk.conversationalAi.analytics.liveCount.get()).count, { timeout: 10_000 })
      .toBe(0);

    // Chosen: only that one, whatever it subscribes to; the second time without the transcript.
    await a.sdk.conversationalAi.settings.update({ webhooks: { postCallWebhookId: chosen } });
    const ids: string[] = [];
    for (const user of ['ada', 'grace']) {
      if (user === 'grace') {
        // The post-call work reads the settings after the socket closed: ada's is delivered first.
        await expect
          .poll(() => arrivals.filter((r) => r.url === '/chosen-one').length, { timeout: 20_000 })
          .toBe(1);
        await a.sdk.conversationalAi.settings.update({ webhooks: { excludeTranscript: true } });
      }
      c = await talk(user);
      const meta = c.messages.find((m) => m.type === 'conversation_initiation_metadata')
        ?.conversation_initiation_metadata_event as { conversation_id: string };
      ids.push(meta.conversation_id);
      c.ws.close(1000);
      await c.closed;
    }
    await expect
      .poll(() => arrivals.filter((r) => r.url === '/chosen-one').length, { timeout: 20_000 })
      .toBe(2);
    await sleep(300);
    expect(arrivals.filter((r) => r.url === '/first').length).toBe(1);
    const delivered = arrivals
      .filter((r) => r.url === '/chosen-one')
      .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
    expect(delivered.map((d) => d.type)).toEqual(['post_call_transcription', 'post_call_transcription']);
    const byId = (id: string | undefined) => delivered.find((d) => d.data.conversation_id === id)?.data;
    expect(byId(ids[0])?.agent_id).toBe(agent.agentId);
    expect(byId(ids[0])).toHaveProperty('transcript');
    expect(byId(ids[1])).not.toHaveProperty('transcript');
    await a.sdk.conversationalAi.settings.update({ webhooks: { excludeTranscript: false } });

    // The people who talked: ada twice, grace once.
    const users = await a.sdk.conversationalAi.users.list({
      agentId: agent.agentId,
      sortBy: 'conversation_count',
    });
    expect(users.users.map((u) => [u.userId, u.conversationCount])).toEqual([
      ['ada', 2],
      ['grace', 1],
    ]);
    expect(users.users[0]?.lastContactAgentId).toBe(agent.agentId);
    expect(users.hasMore).toBe(false);
    const page1 = await a.sdk.conversationalAi.users.list({ agentId: agent.agentId, pageSize: 1 });
    expect(page1.users.map((u) => u.userId)).toEqual(['grace']);
    expect(page1.hasMore).toBe(true);
    const page2 = await a.sdk.conversationalAi.users.list({
      agentId: agent.agentId,
      pageSize: 1,
      cursor: page1.nextCursor,
    });
    expect(page2.users.map((u) => u.userId)).toEqual(['ada']);
    expect(page2.hasMore).toBe(false);
    expect((await a.sdk.conversationalAi.users.list({ search: 'grace' })).users).toHaveLength(1);
    expect((await b.sdk.conversationalAi.users.list()).users).toEqual([]);
    for (const query of ['cursor=nonsense', 'sort_by=average_sentiment_score', 'branch_id=x', 'page_size=0'])
      expect((await raw(a, 'GET', `/v1/convai/users?${query}`)).status, query).toBe(422);

    // The dashboard's series: today's conversations and minutes.
    const daily = await raw(a, 'GET', `/v1/convai/analytics/daily?days=7&agent_id=${agent.agentId}`);
    const days = daily.json.days as { date: string; conversations: number; minutes: number }[];
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toMatchObject({ date: new Date().toISOString().slice(0, 10), conversations: 3 });
    expect(days.at(-1)?.minutes).toBeGreaterThanOrEqual(3);
    expect(days.slice(0, 6).every((d) => d.conversations === 0)).toBe(true);
    expect((daily.json.charts as unknown[]).length).toBe(2);
    expect((await raw(a, 'GET', '/v1/convai/analytics/daily?days=91')).status).toBe(422);
  }, 90_000);
});
