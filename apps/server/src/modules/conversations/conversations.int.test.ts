import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ConversationUsageResponse, WS_CLOSE } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { workerJobs } from '../../modules';
import { deliverEventJob } from '../../platform/events/event-bus';
import { JobWorker } from '../../platform/jobs/job-worker';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { type ScriptedLlm, startScriptedLlm } from '../../test/scripted-llm';
import { newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech } from '../../test/test-signals';
import { deliverWebhookJob } from '../webhooks/webhooks.jobs';
import { conversationMinutes } from './conversations.tables';

/*
 * The conversation socket (issue 28 items 2, 4, 5 and 6) with a plain WebSocket client speaking the
 * protocol `@elevenlabs/client` speaks, against the real app and a scripted OpenAI-compatible LLM (a stand-in
 * for the remote model; it holds no agent rule): the greeting, a typed and a spoken question answered from
 * the knowledge base, a webhook tool called with the model's parameters and its answer spoken, a client
 * tool round trip, end_call closing with 1000, a barge-in stopping the audio; knowledge-base mode with no
 * model; every bad input refused with the protocol's error while another conversation carries on; the
 * conversation kept with its transcript and recording, read back with the official client.
 */

const RATE = 16_000;
const HOURS = 'Our shop is open from nine in the morning to six in the evening, Monday to Saturday.';

let t: TestApp;
let none: TestApp;
let llm: ScriptedLlm;
let baseUrl: string;
let a: SpeechAccount;
let b: SpeechAccount;
let agentId: string;
let documentId: string;
let toolServer: http.Server;
let worker: JobWorker;
let toolUrl: string;
const toolCalls: { url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  llm = await startScriptedLlm();
  toolServer = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      toolCalls.push({ url: request.url ?? '', headers: request.headers, body });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ status: 'shipped', eta: 'Tuesday' }));
    });
  });
  toolServer.listen(0, '127.0.0.1');
  await new Promise((resolve) => toolServer.once('listening', resolve));
  toolUrl = `http://127.0.0.1:${(toolServer.address() as AddressInfo).port}`;
  t = await createTestApp({
    env: {
      ENGINE_POOL_SIZE: '2',
      ENGINE_TIMEOUT_MS: '60000',
      LLM_PROVIDER: 'openai',
      LLM_OPENAI_URL: llm.url,
      LLM_OPENAI_MODEL: 'scripted-model',
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
  const document = await a.sdk.conversationalAi.knowledgeBase.documents.createFromText({
    text: `Opening hours. ${HOURS}\n\nReturns. You can return any item within thirty days with its receipt.`,
    name: 'Shop facts',
  });
  documentId = document.id;
  const secret = await a.sdk.conversationalAi.secrets.create({ name: 'Orders key', value: 'sk-orders-123' });
  const webhook = await a.sdk.conversationalAi.tools.create({
    toolConfig: {
      type: 'webhook',
      name: 'order_status',
      description: 'Looks up an order by its number.',
      apiSchema: {
        url: `${toolUrl}/orders/{order_id}`,
        method: 'GET',
        pathParamsSchema: { order_id: { type: 'string', description: 'The order number' } },
        requestHeaders: { Authorization: { secretId: secret.secretId } },
      },
    },
  });
  const client = await a.sdk.conversationalAi.tools.create({
    toolConfig: {
      type: 'client',
      name: 'show_map',
      description: 'Shows the shop on a map in the page.',
      expectsResponse: true,
      parameters: { type: 'object', properties: { zoom: { type: 'number', description: 'Zoom level' } } },
    },
  });
  const created = await a.sdk.conversationalAi.agents.create({
    name: 'Shop assistant',
    conversationConfig: {
      agent: {
        firstMessage: 'Hello! How can I help?',
        prompt: {
          prompt: 'You help customers of a small shop.',
          toolIds: [webhook.id, client.id],
          builtInTools: {
            endCall: { name: 'end_call', description: '', params: { systemToolType: 'end_call' } },
          },
          knowledgeBase: [{ type: 'text', name: 'Shop facts', id: documentId, usageMode: 'auto' }],
        },
      },
      // The classic English model (the public eleven_flash_v2): quick speech, so the protocol is what the
      // tests wait for.
      tts: { modelId: 'eleven_flash_v2' },
    },
  });
  agentId = created.agentId;
  none = await createTestApp({ env: { LLM_PROVIDER: 'none' } });
}, 180_000);
afterAll(async () => {
  await worker?.stop(5000);
  await t?.close();
  await none?.close();
  await llm?.close();
  toolServer?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean, ms = 30_000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out');
    await sleep(20);
  }
};

type Message = Record<string, unknown> & { type: string };

/** A plain client of the conversation socket: it answers pings, collects messages and the close. */
function converse(
  url: string,
  headers: Record<string, string> = {},
  init: unknown = { type: 'conversation_initiation_client_data' },
) {
  const ws = new WebSocket(url, ['convai'], { headers });
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
  const opened = new Promise<void>((resolve) => ws.on('open', () => resolve()));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  void opened.then(() => {
    if (init !== undefined) ws.send(JSON.stringify(init));
  });
  const of = (type: string) => messages.filter((m) => m.type === type);
  const next = async (type: string, after = 0) => {
    await until(() => of(type).length > after);
    return of(type)[after] as Message;
  };
  const send = (message: unknown) => ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  return { ws, messages, opened, closed, of, next, send };
}

/** The error the server sent before closing, by its type. */
const errorTypeOf = (c: ReturnType<typeof converse>) =>
  (c.of('error')[0]?.error_event as { error_type?: string } | undefined)?.error_type;

/** Waits until the agent's audio has said all of `said` (its alignment's characters), then as long as it
 * lasts (16 kHz PCM): a client that speaks before then interrupts it. (Waiting for a lull in the audio
 * instead failed on a busy machine, where a sentence took longer to speak than the lull.) */
async function playedOut(c: ReturnType<typeof converse>, said: string) {
  const bare = (text: string) => text.replace(/\s+/g, '');
  const spoken = () =>
    bare(
      c
        .of('audio')
        .map((m) => (m.audio_event as { alignment?: { chars: string[] } }).alignment?.chars.join('') ?? '')
        .join(''),
    );
  await until(() => spoken().includes(bare(said)));
  const bytes = c
    .of('audio')
    .reduce(
      (n, m) => n + Buffer.from((m.audio_event as { audio_base_64: string }).audio_base_64, 'base64').length,
      0,
    );
  await sleep((bytes / 2 / RATE) * 1000);
}

const socketUrl = (app: string, query: string) =>
  `${app.replace('http', 'ws')}/v1/convai/conversation?${query}`;

describe('a conversation over the socket, as the official client speaks it', () => {
  it('starts with the metadata, greets, answers a typed question from the knowledge base, and is kept', async () => {
    const hook = await a.sdk.webhooks.create({
      settings: { authType: 'hmac', name: 'Post-call', webhookUrl: `${toolUrl}/post-call` },
    });
    // The SDK's event list predates post-call webhooks (the public API sets them in its agents' settings).
    const subscribed = await fetch(`${baseUrl}/v1/workspace/webhooks/${hook.webhookId}`, {
      method: 'PATCH',
      headers: { 'xi-api-key': a.key, 'content-type': 'application/json' },
      body: JSON.stringify({ is_disabled: false, name: 'Post-call', events: ['post_call_transcription'] }),
    });
    expect(subscribed.status).toBe(200);
    llm.respondWith((request) => {
      const system = request.body.messages?.[0]?.content ?? '';
      return {
        text: system.includes('nine in the morning')
          ? 'We are open from nine to six, Monday to Saturday.'
          : 'I do not know.',
      };
    });
    const c = converse(socketUrl(baseUrl, `agent_id=${agentId}`), { 'xi-api-key': a.key });
    const first = await c.next('conversation_initiation_metadata');
    expect(c.messages[0]).toBe(first);
    expect(c.ws.protocol).toBe('convai');
    const meta = first.conversation_initiation_metadata_event as Record<string, string>;
    expect(meta).toMatchObject({
      agent_output_audio_format: 'pcm_16000',
      user_input_audio_format: 'pcm_16000',
    });
    const greeting = await c.next('agent_response');
    expect(greeting.agent_response_event).toMatchObject({ agent_response: 'Hello! How can I help?' });
    await c.next('audio');
    const audio = c.of('audio')[0]?.audio_event as { audio_base_64: string; alignment: { chars: string[] } };
    expect(Buffer.from(audio.audio_base_64, 'base64').length).toBeGreaterThan(1000);
    expect(audio.alignment.chars.join('')).toContain('Hello');
    await playedOut(c, 'Hello! How can I help?');

    c.send({ type: 'user_message', text: 'When are you open?' });
    const answer = await c.next('agent_response', 1);
    expect((answer.agent_response_event as { agent_response: string }).agent_response).toBe(
      'We are open from nine to six, Monday to Saturday.',
    );
    // The model was asked with the prompt, this turn's passage and the conversation so far.
    const asked = llm.requests.at(-1)?.body;
    expect(asked?.model).toBe('scripted-model');
    expect(asked?.messages?.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    c.ws.close(1000, 'User ended conversation');
    await c.closed;

    const id = meta.conversation_id as string;
    await expect
      .poll(async () => (await a.sdk.conversationalAi.conversations.get(id)).status, { timeout: 30_000 })
      .toBe('done');
    const kept = await a.sdk.conversationalAi.conversations.get(id);
    expect(kept.transcript.map((turn) => [turn.role, turn.message])).toEqual([
      ['agent', 'Hello! How can I help?'],
      ['user', 'When are you open?'],
      ['agent', 'We are open from nine to six, Monday to Saturday.'],
    ]);
    expect(kept.transcript[2]?.ragRetrievalInfo?.chunks[0]?.documentId).toBe(documentId);
    expect(kept.hasAudio).toBe(true);
    const list = await a.sdk.conversationalAi.conversations.list({ agentId });
    expect(list.conversations.map((c) => c.conversationId)).toContain(id);
    const mp3 = Buffer.from(
      await new Response(await a.sdk.conversationalAi.conversations.audio.get(id)).arrayBuffer(),
    );
    expect(mp3.subarray(0, 3).toString('latin1') === 'ID3' || mp3[0] === 0xff).toBe(true);
    // The post-call webhook carried it, in the public API's form, signed for the SDK to check.
    await until(() => toolCalls.some((c) => c.url === '/post-call'));
    const arrival = toolCalls.find((c) => c.url === '/post-call');
    const event = (await a.sdk.webhooks.constructEvent(
      arrival?.body ?? '',
      String(arrival?.headers['elevenlabs-signature']),
      hook.webhookSecret as string,
    )) as { type: string; data: { conversation_id: string; transcript: unknown[] } };
    expect(event.type).toBe('post_call_transcription');
    expect(event.data.conversation_id).toBe(id);
    expect(event.data.transcript).toHaveLength(3);
    // Another workspace does not see it.
    await expect(b.sdk.conversationalAi.conversations.get(id)).rejects.toMatchObject({ statusCode: 404 });
  }, 120_000);

  it('calls a webhook tool with the model’s parameters and the secret, and says what it answered', async () => {
    llm.enqueue({ toolCalls: [{ name: 'order_status', arguments: { order_id: 'A-42' } }] });
    llm.enqueue({ text: 'Your order has shipped and arrives on Tuesday.' });
    const c = converse(
      socketUrl(baseUrl, `agent_id=${agentId}`),
      { 'xi-api-key': a.key },
      {
        type: 'conversation_initiation_client_data',
        conversation_config_override: {},
      },
    );
    await c.next('agent_response');
    c.send({ type: 'user_message', text: 'Where is my order A-42?' });
    const said = await c.next('agent_response', 1);
    expect((said.agent_response_event as { agent_response: string }).agent_response).toBe(
      'Your order has shipped and arrives on Tuesday.',
    );
    expect(toolCalls.at(-1)).toMatchObject({ url: '/orders/A-42' });
    expect(toolCalls.at(-1)?.headers.authorization).toBe('sk-orders-123');
    // The model's second round carried the tool's answer.
    const second = llm.requests.at(-1)?.body.messages ?? [];
    expect(second.at(-1)).toMatchObject({
      role: 'tool',
      content: JSON.stringify({ status: 'shipped', eta: 'Tuesday' }),
    });
    expect(c.of('agent_tool_response')[0]?.agent_tool_response).toMatchObject({
      tool_name: 'order_status',
      is_error: false,
    });
    c.ws.close(1000);
    await c.closed;
  }, 60_000);

  it('round-trips a client tool, refuses a tool the agent does not have, and end_call closes with 1000', async () => {
    llm.enqueue({
      toolCalls: [
        { name: 'show_map', arguments: { zoom: 3 } },
        { name: 'delete_all_orders', arguments: {} },
      ],
    });
    llm.enqueue({ text: 'Here it is on the map.' });
    const c = converse(socketUrl(baseUrl, `agent_id=${agentId}`), { 'xi-api-key': a.key });
    await c.next('agent_response');
    c.send({ type: 'user_message', text: 'Where is the shop?' });
    const call = (await c.next('client_tool_call')).client_tool_call as {
      tool_call_id: string;
      tool_name: string;
      parameters: unknown;
    };
    expect(call).toMatchObject({ tool_name: 'show_map', parameters: { zoom: 3 } });
    c.send({
      type: 'client_tool_result',
      tool_call_id: call.tool_call_id,
      result: 'map shown',
      is_error: false,
    });
    await c.next('agent_response', 1);
    const tools = (llm.requests.at(-1)?.body.messages ?? []).filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual([
      'map shown',
      'There is no tool named "delete_all_orders" for this agent; it was not called.',
    ]);
    llm.enqueue({ text: 'Goodbye!', toolCalls: [{ name: 'end_call', arguments: {} }] });
    c.send({ type: 'user_message', text: 'Thanks, bye.' });
    expect((await c.closed).code).toBe(WS_CLOSE.normal);
  }, 60_000);

  it('checks in once after turn_timeout of silence, then ends the call after silence_end_call_timeout', async () => {
    const quiet = await a.sdk.conversationalAi.agents.create({
      name: 'Quiet line',
      conversationConfig: {
        agent: { firstMessage: 'Hi.', prompt: { prompt: 'You help customers of a small shop.' } },
        conversation: { textOnly: true },
        turn: { turnTimeout: 1, silenceEndCallTimeout: 3 },
      },
    });
    llm.enqueue({ text: 'Are you still with me?' });
    const c = converse(socketUrl(baseUrl, `agent_id=${quiet.agentId}`), { 'xi-api-key': a.key });
    await c.next('agent_response');
    const startedAt = performance.now();
    const checkIn = await c.next('agent_response', 1);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(900);
    expect(checkIn.agent_response_event).toMatchObject({ agent_response: 'Are you still with me?' });
    const asked = llm.requests.at(-1)?.body.messages ?? [];
    expect(asked.at(-1)).toMatchObject({ role: 'system' });
    expect(String(asked.at(-1)?.content)).toContain('said nothing for 1 seconds');
    const closed = await c.closed;
    expect(closed.code).toBe(WS_CLOSE.normal);
    expect(closed.reason).toContain('silence_end_call_timeout');
    // Once per silence: no second check-in before the call ended.
    expect(c.of('agent_response')).toHaveLength(2);
  }, 60_000);

  it('a barge-in stops the agent at once: interruption, no more of its audio, the answer cut where it was', async () => {
    const long = Array.from(
      { length: 12 },
      (_, i) => `This is sentence number ${i + 1} of a long answer.`,
    ).join(' ');
    llm.enqueue({ text: long });
    const c = converse(socketUrl(baseUrl, `agent_id=${agentId}`), { 'xi-api-key': a.key });
    await c.next('agent_response');
    c.send({ type: 'user_message', text: 'Tell me everything.' });
    await c.next('audio', c.of('audio').length);
    llm.enqueue({ text: 'Sure.' });
    c.send({ type: 'user_message', text: 'Stop, one more thing.' });
    const interruption = (await c.next('interruption')).interruption_event as { event_id: number };
    // The answer to what the user said over the agent ('Sure.') comes after the interruption.
    await until(() =>
      c
        .of('agent_response')
        .some((m) => (m.agent_response_event as { agent_response: string }).agent_response === 'Sure.'),
    );
    const stale = c.messages
      .slice(c.messages.findIndex((m) => m.type === 'interruption'))
      .filter(
        (m) => m.type === 'audio' && (m.audio_event as { event_id: number }).event_id < interruption.event_id,
      );
    expect(stale).toEqual([]);
    const correction = c.of('agent_response_correction')[0]?.agent_response_correction_event as {
      corrected_agent_response: string;
    };
    expect(correction.corrected_agent_response.length).toBeLessThan(long.length);
    c.ws.close(1000);
    await c.closed;
  }, 60_000);
});

describe('post-call analysis', () => {
  it('asks the model about the agent’s criteria and data once the conversation ended, and keeps its answer', async () => {
    const { agentId: reviewed } = await a.sdk.conversationalAi.agents.create({
      conversationConfig: { agent: { firstMessage: '' }, conversation: { textOnly: true } },
      platformSettings: {
        evaluation: {
          criteria: [
            { id: 'answered', name: 'Answered', conversationGoalPrompt: 'The agent answered the question.' },
          ],
        },
        dataCollection: { order: { type: 'string', description: 'The order number the user gave' } },
      },
    });
    expect(llm.pending).toBe(0);
    llm.enqueue({ text: 'It shipped yesterday.' });
    llm.enqueue({
      text: JSON.stringify({
        summary: 'The user asked about order A-42.',
        criteria: { answered: { result: 'success', rationale: 'The agent said it shipped.' } },
        data: { order: { value: 'A-42', rationale: 'The user named it.' } },
      }),
    });
    const c = converse(socketUrl(baseUrl, `agent_id=${reviewed}`), { 'xi-api-key': a.key });
    const meta = (await c.next('conversation_initiation_metadata'))
      .conversation_initiation_metadata_event as {
      conversation_id: string;
    };
    c.send({ type: 'user_message', text: 'Where is my order A-42?' });
    await c.next('agent_response');
    c.ws.close(1000);
    await c.closed;
    await expect
      .poll(async () => (await a.sdk.conversationalAi.conversations.get(meta.conversation_id)).analysis, {
        timeout: 30_000,
      })
      .toMatchObject({ callSuccessful: 'success', transcriptSummary: 'The user asked about order A-42.' });
    const raw = (await (
      await fetch(`${baseUrl}/v1/convai/conversations/${meta.conversation_id}`, {
        headers: { 'xi-api-key': a.key },
      })
    ).json()) as { analysis: { data_collection_results: Record<string, { value: unknown }> } };
    expect(raw.analysis.data_collection_results.order?.value).toBe('A-42');
    // The model read the transcript and the criterion.
    const asked = llm.requests.at(-1)?.body.messages ?? [];
    expect(asked[0]?.content).toMatch(/answered: The agent answered the question/);
    expect(asked[1]?.content).toMatch(/User: Where is my order A-42\?\nAgent: It shipped yesterday\./);
  }, 60_000);
});

describe('bad input gets the protocol’s error and changes nothing', () => {
  it('malformed frames, a 10 MB frame, audio in the wrong shape, an unknown type: each an error and a close', async () => {
    const cases: [unknown, string, number][] = [
      ['{not json', 'invalid_message', WS_CLOSE.policyViolation],
      [{ user_audio_chunk: 'not base64!' }, 'invalid_audio', WS_CLOSE.policyViolation],
      [
        { user_audio_chunk: Buffer.from([1, 2, 3]).toString('base64') },
        'invalid_audio',
        WS_CLOSE.policyViolation,
      ],
      [{ type: 'launch_missiles' }, 'invalid_message', WS_CLOSE.policyViolation],
      [
        JSON.stringify({ type: 'user_message', text: 'x'.repeat(10 * 1024 * 1024) }),
        'message_too_large',
        WS_CLOSE.tooBig,
      ],
    ];
    for (const [frame, type, code] of cases) {
      const c = converse(socketUrl(baseUrl, `agent_id=${agentId}`), { 'xi-api-key': a.key });
      await c.next('conversation_initiation_metadata');
      c.send(frame);
      const closed = await c.closed;
      expect({
        type: errorTypeOf(c),
        code: closed.code,
      }).toEqual({ type, code });
    }
    // Audio far ahead of the clock is not a microphone (20 s in one message, as soon as it opens).
    const ahead = converse(socketUrl(baseUrl, `agent_id=${agentId}`), { 'xi-api-key': a.key });
    await ahead.next('conversation_initiation_metadata');
    ahead.send({ user_audio_chunk: Buffer.alloc(20 * RATE * 2).toString('base64') });
    expect([(await ahead.closed).code, errorTypeOf(ahead)]).toEqual([
      WS_CLOSE.policyViolation,
      'invalid_audio',
    ]);
    // A flood of typed turns is refused, not queued without end.
    const flood = converse(socketUrl(baseUrl, `agent_id=${agentId}`), { 'xi-api-key': a.key });
    await flood.next('conversation_initiation_metadata');
    for (let i = 0; i < 10; i += 1) flood.send({ type: 'user_message', text: `Question ${i}?` });
    expect([(await flood.closed).code, errorTypeOf(flood)]).toEqual([
      WS_CLOSE.policyViolation,
      'invalid_message',
    ]);
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
  }, 60_000);

  it('another workspace’s agent, a private agent without a signature, a signed URL reused', async () => {
    const other = converse(socketUrl(baseUrl, `agent_id=${agentId}`), { 'xi-api-key': b.key });
    expect((await other.closed).code).toBe(WS_CLOSE.policyViolation);
    expect(errorTypeOf(other)).toBe('agent_not_found');

    await a.sdk.conversationalAi.agents.update(agentId, { platformSettings: { auth: { enableAuth: true } } });
    const anonymous = converse(socketUrl(baseUrl, `agent_id=${agentId}`));
    expect((await anonymous.closed).code).toBe(WS_CLOSE.policyViolation);
    expect(errorTypeOf(anonymous)).toBe('unauthorized');

    const { signedUrl } = await a.sdk.conversationalAi.conversations.getSignedUrl({ agentId });
    expect(signedUrl).toContain('conversation_signature=');
    const signed = converse(signedUrl);
    await signed.next('conversation_initiation_metadata');
    signed.ws.close(1000);
    await signed.closed;
    const again = converse(signedUrl);
    expect((await again.closed).code).toBe(WS_CLOSE.policyViolation);
    await a.sdk.conversationalAi.agents.update(agentId, {
      platformSettings: { auth: { enableAuth: false } },
    });

    // WebRTC is not served: the token call says so.
    await expect(a.sdk.conversationalAi.conversations.getWebrtcToken({ agentId })).rejects.toMatchObject({
      statusCode: 400,
    });
  }, 60_000);
});

describe('conversation minutes (accounts §9)', () => {
  it('refuses a conversation when the plan’s minutes are used, before anything is said; the usage call counts them', async () => {
    const usage = async () =>
      (await (
        await fetch(`${baseUrl}/v1/convai/usage`, { headers: { 'xi-api-key': a.key } })
      ).json()) as ConversationUsageResponse;
    const before = await usage();
    // Free: 15 minutes, 4 at once; the conversations above took a minute each.
    expect(before).toMatchObject({ minutes_limit: 15, extra_minutes_allowed: false, concurrency_limit: 4 });
    expect(before.minutes_used).toBeGreaterThan(0);
    const db = t.deps.database.db;
    await db
      .update(conversationMinutes)
      .set({ minutesUsed: 15 })
      .where(eq(conversationMinutes.workspaceId, a.workspaceId));
    const count = (await a.sdk.conversationalAi.conversations.list({ agentId })).conversations.length;
    const refused = converse(socketUrl(baseUrl, `agent_id=${agentId}`), { 'xi-api-key': a.key });
    const closed = await refused.closed;
    expect({ code: closed.code, type: errorTypeOf(refused) }).toEqual({
      code: WS_CLOSE.policyViolation,
      type: 'quota_exceeded',
    });
    expect(refused.of('conversation_initiation_metadata')).toEqual([]);
    expect(closed.reason).toMatch(/15 conversation minutes for this period are used up/);
    expect((await a.sdk.conversationalAi.conversations.list({ agentId })).conversations).toHaveLength(count);
    expect((await usage()).minutes_used).toBe(15);
    await db
      .update(conversationMinutes)
      .set({ minutesUsed: 0 })
      .where(eq(conversationMinutes.workspaceId, a.workspaceId));
  }, 30_000);
});

describe('knowledge-base mode, with no language model', () => {
  it('answers each turn with the best passage and says so in the metadata', async () => {
    const url = await none.app.listen({ port: 0, host: '127.0.0.1' });
    const owner = await newSpeechAccount(none.app, url);
    const document = await owner.sdk.conversationalAi.knowledgeBase.documents.createFromText({
      text: `Opening hours. ${HOURS}\n\nReturns. You can return any item within thirty days with its receipt.`,
      name: 'Shop facts',
    });
    const { agentId: kbAgent } = await owner.sdk.conversationalAi.agents.create({
      conversationConfig: {
        agent: {
          firstMessage: '',
          prompt: {
            knowledgeBase: [{ type: 'text', name: 'Shop facts', id: document.id, usageMode: 'auto' }],
          },
        },
        conversation: { textOnly: true },
      },
    });
    const status = await fetch(`${url}/v1/convai/llm-status`, { headers: { 'xi-api-key': owner.key } });
    expect(await status.json()).toMatchObject({
      mode: 'knowledge_base',
      provider: 'none',
      tool_calls: false,
    });
    const c = converse(socketUrl(url, `agent_id=${kbAgent}`), { 'xi-api-key': owner.key });
    const meta = (await c.next('conversation_initiation_metadata'))
      .conversation_initiation_metadata_event as {
      conversation_id: string;
    };
    c.send({ type: 'user_message', text: 'Can I return something I bought?' });
    const answer = (await c.next('agent_response')).agent_response_event as { agent_response: string };
    expect(answer.agent_response).toContain('return any item within thirty days');
    c.ws.close(1000);
    await c.closed;
    await expect
      .poll(async () => (await owner.sdk.conversationalAi.conversations.get(meta.conversation_id)).metadata, {
        timeout: 20_000,
      })
      // Parla's own fields come through the official client as they are on the wire.
      .toMatchObject({ response_mode: 'knowledge_base' });
  }, 60_000);
});

describe('a spoken turn', () => {
  const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');
  it('hears the question through a short pause, transcribes it as one turn, and answers', async (context) => {
    skipWithout(context, noModel);
    llm.respondWith(() => ({ text: 'We open at nine.' }));
    // A question with a 0.3 s pause inside: past the silence that starts its transcription early (0.2 s),
    // short of the one that ends the turn (0.4 s), so it stays one turn.
    const voiced = (samples: Int16Array) => {
      const loud = (i: number) => Math.abs(samples[i] as number) > 500;
      let from = 0;
      let to = samples.length;
      while (from < to && !loud(from)) from += 1;
      while (to > from && !loud(to - 1)) to -= 1;
      return samples.subarray(from, to);
    };
    const first = voiced((await fliteSpeech('slt', 'What time do you open')).samples);
    const second = voiced((await fliteSpeech('slt', 'in the morning?')).samples);
    const c = converse(socketUrl(baseUrl, `agent_id=${agentId}`), { 'xi-api-key': a.key });
    await c.next('agent_response');
    const pause = Math.round(0.3 * RATE);
    const audio = new Int16Array(RATE / 2 + first.length + pause + second.length + RATE);
    audio.set(first, RATE / 2);
    audio.set(second, RATE / 2 + first.length + pause);
    const step = RATE / 10;
    for (let i = 0; i < audio.length; i += step) {
      const part = audio.subarray(i, i + step);
      c.send({
        user_audio_chunk: Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('base64'),
      });
      await sleep(20);
    }
    const heard = (await c.next('user_transcript')).user_transcription_event as { user_transcript: string };
    expect(heard.user_transcript.toLowerCase()).toContain('open');
    expect(heard.user_transcript.toLowerCase()).toContain('morning');
    await c.next('agent_response', 1);
    expect(c.of('user_transcript')).toHaveLength(1);
    expect(c.of('vad_score').length).toBeGreaterThan(0);
    c.ws.close(1000);
    await c.closed;
  }, 90_000);
});
