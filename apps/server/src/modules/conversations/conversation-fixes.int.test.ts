import { WS_CLOSE } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { type ScriptedLlm, startScriptedLlm } from '../../test/scripted-llm';
import { newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { firstPieceLength } from '../tts';
import { conversationMinutes } from './conversations.tables';

/*
 * The conversation socket's review (issue 28): the concurrency limit under a burst of sockets, a key
 * revoked mid-conversation, the `bearer.<token>` subprotocol, a signed URL kept for a start that was
 * refused, a barge-in after the whole answer was sent, and audio sent to a text-only agent. Text-only
 * agents and typed turns wherever the point is not audio.
 */

let t: TestApp;
let llm: ScriptedLlm;
let baseUrl: string;

beforeAll(async () => {
  llm = await startScriptedLlm();
  t = await createTestApp({
    env: { LLM_PROVIDER: 'openai', LLM_OPENAI_URL: llm.url, LLM_OPENAI_MODEL: 'scripted-model' },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await llm?.close();
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

/** A plain client of the conversation socket (as in conversations.int.test.ts). */
function converse(url: string, headers: Record<string, string> = {}, protocols: string[] = ['convai']) {
  const ws = new WebSocket(url, protocols, { headers });
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
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('open', () => ws.send(JSON.stringify({ type: 'conversation_initiation_client_data' })));
  const of = (type: string) => messages.filter((m) => m.type === type);
  const next = async (type: string, after = 0) => {
    await until(() => of(type).length > after);
    return of(type)[after] as Message;
  };
  const send = (message: unknown) => ws.send(JSON.stringify(message));
  const error = () => of('error')[0]?.error_event as { error_type?: string; message?: string } | undefined;
  return { ws, messages, closed, of, next, send, error };
}

const socketUrl = (agentId: string) =>
  `${baseUrl.replace('http', 'ws')}/v1/convai/conversation?agent_id=${agentId}`;

async function textAgent(account: SpeechAccount, enableAuth = false): Promise<string> {
  const { agentId } = await account.sdk.conversationalAi.agents.create({
    conversationConfig: { agent: { firstMessage: '' }, conversation: { textOnly: true } },
    platformSettings: { auth: { enableAuth } },
  });
  return agentId;
}

async function openConversations(account: SpeechAccount): Promise<number> {
  const usage = await fetch(`${baseUrl}/v1/convai/usage`, { headers: { 'xi-api-key': account.key } });
  return ((await usage.json()) as { open_conversations: number }).open_conversations;
}

describe('the plan’s concurrent-conversation limit (accounts §9)', () => {
  it('lets only as many sockets as the plan allows start when they all open at once', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const agentId = await textAgent(account);
    // Free: 4 at once. Ten sockets opened together, none waiting for another.
    const sockets = Array.from({ length: 10 }, () =>
      converse(socketUrl(agentId), { 'xi-api-key': account.key }),
    );
    await until(() => sockets.every((c) => c.of('conversation_initiation_metadata').length > 0 || c.error()));
    const started = sockets.filter((c) => c.of('conversation_initiation_metadata').length > 0);
    const refused = sockets.filter((c) => c.error());
    expect(started).toHaveLength(4);
    expect(refused.map((c) => c.error()?.error_type)).toEqual(
      Array(6).fill('too_many_concurrent_conversations'),
    );
    for (const c of refused) expect((await c.closed).code).toBe(WS_CLOSE.tryAgainLater);
    expect(await openConversations(account)).toBe(4);
    // The refused ones took no minute: four conversations, four minutes.
    const [minutes] = await t.deps.database.db
      .select()
      .from(conversationMinutes)
      .where(eq(conversationMinutes.workspaceId, account.workspaceId));
    expect(minutes?.minutesUsed).toBe(4);
    for (const c of started) c.ws.close(1000);
    await Promise.all(started.map((c) => c.closed));
    await expect.poll(() => openConversations(account), { timeout: 20_000 }).toBe(0);
  }, 60_000);
});

describe('access checked while a conversation runs', () => {
  it('ends a conversation opened with an API key once the key is deleted, with unauthorized and 1008', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const agentId = await textAgent(account);
    llm.respondWith(() => ({ text: 'Still here.' }));
    const c = converse(socketUrl(agentId), { 'xi-api-key': account.key });
    await c.next('conversation_initiation_metadata');
    c.send({ type: 'user_message', text: 'Hello?' });
    await c.next('agent_response');
    const keys = (await (
      await fetch(`${baseUrl}/v1/user/api-keys`, { headers: { authorization: `Bearer ${account.token}` } })
    ).json()) as { api_keys: { key_id: string }[] };
    for (const key of keys.api_keys)
      await fetch(`${baseUrl}/v1/user/api-keys/${key.key_id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${account.token}` },
      });
    const asked = llm.requests.length;
    c.send({ type: 'user_message', text: 'Are you still there?' });
    const closed = await c.closed;
    expect({ code: closed.code, type: c.error()?.error_type }).toEqual({
      code: WS_CLOSE.policyViolation,
      type: 'unauthorized',
    });
    expect(closed.reason).toMatch(/no longer has access; the conversation was ended/);
    // Not answered: the model was not asked again.
    expect(c.of('agent_response')).toHaveLength(1);
    expect(llm.requests.length).toBe(asked);
  }, 60_000);
});

describe('the bearer.<token> subprotocol (el-facts §3) opens a private agent', () => {
  it('takes an API key or a signed URL’s signature, and answers with convai only', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const agentId = await textAgent(account, true);
    const withKey = converse(socketUrl(agentId), {}, ['convai', `bearer.${account.key}`]);
    await withKey.next('conversation_initiation_metadata');
    expect(withKey.ws.protocol).toBe('convai');
    withKey.ws.close(1000);
    await withKey.closed;

    const { signedUrl } = await account.sdk.conversationalAi.conversations.getSignedUrl({ agentId });
    const signature = new URL(signedUrl).searchParams.get('conversation_signature') as string;
    // A credential is never echoed as the chosen subprotocol, whatever order it is offered in.
    const signed = converse(socketUrl(agentId), {}, [`bearer.${signature}`, 'convai']);
    await signed.next('conversation_initiation_metadata');
    expect(signed.ws.protocol).toBe('convai');
    signed.ws.close(1000);
    await signed.closed;

    const wrong = converse(socketUrl(agentId), {}, ['convai', 'bearer.not-a-key']);
    expect((await wrong.closed).code).toBe(WS_CLOSE.policyViolation);
    expect(wrong.error()?.error_type).toBe('unauthorized');
  }, 60_000);
});

describe('a signed URL whose conversation was refused', () => {
  it('still opens one once the refusal is gone (it is used up only by a conversation that starts)', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const agentId = await textAgent(account, true);
    const { signedUrl } = await account.sdk.conversationalAi.conversations.getSignedUrl({ agentId });
    const db = t.deps.database.db;
    await db.insert(conversationMinutes).values({ workspaceId: account.workspaceId, minutesUsed: 15 });
    const refused = converse(signedUrl);
    expect((await refused.closed).code).toBe(WS_CLOSE.policyViolation);
    expect(refused.error()?.error_type).toBe('quota_exceeded');
    await db
      .update(conversationMinutes)
      .set({ minutesUsed: 0 })
      .where(eq(conversationMinutes.workspaceId, account.workspaceId));
    const started = converse(signedUrl);
    await started.next('conversation_initiation_metadata');
    started.ws.close(1000);
    await started.closed;
    // Used now: once.
    const again = converse(signedUrl);
    expect((await again.closed).code).toBe(WS_CLOSE.policyViolation);
    expect(again.error()?.error_type).toBe('unauthorized');
  }, 60_000);
});

describe('audio sent to a text-only agent', () => {
  it('is refused with invalid_message and a sentence saying the agent is text only', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const agentId = await textAgent(account);
    const c = converse(socketUrl(agentId), { 'xi-api-key': account.key });
    await c.next('conversation_initiation_metadata');
    c.send({ user_audio_chunk: Buffer.alloc(3200).toString('base64') });
    const closed = await c.closed;
    expect({ code: closed.code, type: c.error()?.error_type }).toEqual({
      code: WS_CLOSE.policyViolation,
      type: 'invalid_message',
    });
    expect(c.error()?.message).toMatch(/text only.*user_message/);
  }, 30_000);
});

describe('a barge-in after the whole answer was sent', () => {
  const noModel = modelsUnavailable('silero-vad');
  it('keeps only what the client had played, in the transcript and the model’s history', async (context) => {
    skipWithout(context, noModel);
    const account = await newSpeechAccount(t.app, baseUrl);
    const { agentId } = await account.sdk.conversationalAi.agents.create({
      conversationConfig: { agent: { firstMessage: '' }, tts: { modelId: 'eleven_flash_v2' } },
    });
    const first =
      'The first part of my answer is a rather long sentence about the opening hours of the shop.';
    const second = 'The second part is never heard.';
    // The first sentence goes out in two pieces (its first five words or so first, for a quicker first
    // audio): 200 ms into the playback the client is playing the first piece.
    const played = first.slice(0, firstPieceLength(first));
    expect(played).toBe('The first part of my answer');
    llm.enqueue({ text: `${first} ${second}` });
    const c = converse(socketUrl(agentId), { 'xi-api-key': account.key });
    const meta = (await c.next('conversation_initiation_metadata'))
      .conversation_initiation_metadata_event as {
      conversation_id: string;
    };
    c.send({ type: 'user_message', text: 'When are you open?' });
    await c.next('agent_response');
    // Both sentences' audio has come (their alignments spell the answer; the server sends faster than
    // the client plays): the client is still playing the first.
    const squeezed = (text: string) => text.replace(/\s+/g, '');
    const aligned = () =>
      squeezed(
        c
          .of('audio')
          .map((m) => (m.audio_event as { alignment?: { chars: string[] } }).alignment?.chars.join('') ?? '')
          .join(''),
      );
    await until(() => aligned().length >= squeezed(`${first} ${second}`).length);
    await sleep(200);
    llm.enqueue({ text: 'Sure.' });
    c.send({ type: 'user_message', text: 'Wait, one thing.' });
    await c.next('interruption');
    const correction = (await c.next('agent_response_correction')).agent_response_correction_event as {
      corrected_agent_response: string;
    };
    expect(correction.corrected_agent_response).toBe(played);
    await c.next('agent_response', 1);
    const history = llm.requests.at(-1)?.body.messages ?? [];
    expect(history.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([played]);
    c.ws.close(1000);
    await c.closed;
    await expect
      .poll(async () => (await account.sdk.conversationalAi.conversations.get(meta.conversation_id)).status, {
        timeout: 30_000,
      })
      .toBe('done');
    const kept = await account.sdk.conversationalAi.conversations.get(meta.conversation_id);
    expect(kept.transcript.map((turn) => [turn.role, turn.message, turn.interrupted ?? false])).toEqual([
      ['user', 'When are you open?', false],
      ['agent', played, true],
      ['user', 'Wait, one thing.', false],
      ['agent', 'Sure.', false],
    ]);
  }, 90_000);
});
