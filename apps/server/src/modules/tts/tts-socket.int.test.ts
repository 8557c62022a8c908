import { once } from 'node:events';
import { WS_CLOSE } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { decodeStrictly } from '../../test/audio-probe';
import { characterCountOf, newSpeechAccount, premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { concurrencySlots, creditLedger } from '../credits/credits.tables';

/*
 * Issue 20 items 2 and 3, "Done when": `stream-input` and `multi-stream-input` driven by a plain WebSocket
 * client following the SDK's message types (InitializeConnection, SendText, CloseConnection;
 * …Multi, FlushContext, CloseContext, CloseSocket): audio decodes, alignments cover the text in order,
 * flush forces a short tail out, a closed context stops, inactivity closes with the documented message,
 * credits equal the characters spoken; and bad input ends the socket with the protocol's error.
 */

let t: TestApp;
let baseUrl: string;
let wsBase: string;
/**
 * flite's voice: quick, so the tests stay cheap. Alan has no neural rendition (decision 21), so the
 * default model speaks him classic; the neural socket is neural-speech.int.test.ts's.
 */
const VOICE = premadeVoiceId('Alan');

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = baseUrl.replace('http', 'ws');
});
afterAll(() => t.close());

interface Received {
  audio?: string | null;
  isFinal?: boolean;
  contextId?: string;
  normalizedAlignment?: { chars: string[]; charStartTimesMs: number[]; charDurationsMs: number[] };
  alignment?: { chars: string[]; charStartTimesMs: number[]; charDurationsMs: number[] };
  message?: string;
  error?: string;
  code?: number;
}

function open(path: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${wsBase}${path}`, { headers });
  const messages: Received[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as Received));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const send = (message: unknown) => ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  return { ws, messages, closed, opened: once(ws, 'open'), send };
}

const until = async (check: () => boolean, ms = 20_000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const audioOf = (messages: Received[]) =>
  Buffer.concat(messages.filter((m) => m.audio).map((m) => Buffer.from(m.audio as string, 'base64')));

describe('text to speech over a WebSocket', () => {
  it('stream-input: speaks text as it comes, in order, with alignments, and charges its characters', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const before = await characterCountOf(t.deps.database.db, account.workspaceId);
    const socket = open(`/v1/text-to-speech/${VOICE}/stream-input?output_format=mp3_22050_32`, {
      'xi-api-key': account.key,
    });
    await socket.opened;
    const sentences = ['Good morning everyone. ', 'The weather is lovely today. ', 'Shall we go for a walk?'];
    socket.send({ text: ' ', voice_settings: { stability: 0.5, similarity_boost: 0.8 } });
    // Words arrive one by one, as a language model writes them.
    for (const word of sentences.join('').split(/(?<= )/))
      socket.send({ text: word, try_trigger_generation: true });
    // The first sentence is spoken before the input ends.
    await until(() => socket.messages.some((m) => m.audio));
    socket.send({ text: '' });
    const closed = await socket.closed;
    expect(closed.code).toBe(WS_CLOSE.normal);

    const final = socket.messages.at(-1);
    expect(final).toEqual({ isFinal: true });
    const audio = socket.messages.filter((m) => m.audio !== undefined);
    expect(audio.length).toBeGreaterThanOrEqual(3);
    // The messages' bytes are one mp3 stream that decodes whole, about as long as the speech.
    const seconds = decodeStrictly(audioOf(socket.messages));
    expect(seconds).toBeGreaterThan(3);
    expect(seconds).toBeLessThan(12);
    // The alignments cover the text, in order.
    const spoken = audio.map((m) => m.alignment?.chars.join('') ?? '').join('');
    expect(spoken.replace(/\s+/g, ' ').trim()).toBe(sentences.join('').trim());
    // (The last message may be the encoder's last bytes alone, without characters.)
    for (const m of audio.filter((message) => message.alignment)) {
      const starts = m.alignment?.charStartTimesMs ?? [];
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
      expect(m.normalizedAlignment?.chars.length).toBeGreaterThan(0);
    }
    // Each generation is charged its characters (spaces between them aside).
    const after = await characterCountOf(t.deps.database.db, account.workspaceId);
    const charged = sentences.map((s) => s.trim().length).reduce((a, b) => a + b, 0);
    expect((after ?? 0) - (before ?? 0)).toBe(charged);
  });

  it('flush forces a short tail out without ending the input; inactivity then closes with the documented message', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const socket = open(
      `/v1/text-to-speech/${VOICE}/stream-input?output_format=pcm_16000&inactivity_timeout=2`,
    );
    await socket.opened;
    // Credentials in the first message, as the protocol allows.
    socket.send({ text: ' ', xi_api_key: account.key });
    socket.send({ text: 'Hello there ' });
    await new Promise((r) => setTimeout(r, 700));
    // No sentence end, far below the schedule's 120 characters: nothing yet.
    expect(socket.messages.filter((m) => m.audio)).toHaveLength(0);
    socket.send({ text: '', flush: true });
    // The flushed text's audio comes out without any further input (not held for a next generation).
    await until(() => audioOf(socket.messages).length / 2 / 16_000 > 0.3).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${JSON.stringify(socket.messages).slice(0, 500)}`);
    });
    const pcm = audioOf(socket.messages);
    expect(pcm.length % 2).toBe(0);
    expect(pcm.length / 2 / 16_000).toBeGreaterThan(0.3);
    expect(socket.messages.some((m) => m.isFinal)).toBe(false);
    const closed = await socket.closed;
    expect(closed.code).toBe(WS_CLOSE.policyViolation);
    expect(socket.messages.at(-1)).toEqual({
      message:
        'Have not received a new text input within the timeout of 2 seconds. Streaming input terminated. Please make sure to either feed the input in the timely manner, or to send the end of input text (empty string "") when done.',
      error: 'input_timeout_exceeded',
      code: 1008,
    });
  });

  it('multi-stream-input: contexts tagged with their ids; a closed context stops at once', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const before = await characterCountOf(t.deps.database.db, account.workspaceId);
    const socket = open(`/v1/text-to-speech/${VOICE}/multi-stream-input?output_format=pcm_16000`, {
      'xi-api-key': account.key,
    });
    await socket.opened;
    socket.send({ text: ' ', context_id: 'a' });
    socket.send({ text: 'This is the first context speaking. ', context_id: 'a' });
    socket.send({ text: ' ', context_id: 'b' });
    // A long text in context b, then barge-in: b is closed as soon as its first audio is out. Long enough
    // that Flite cannot speak all of it before the close arrives (12 sentences were, on a quiet machine).
    const sentences = 60;
    const long = Array.from(
      { length: sentences },
      (_, i) => `Sentence number ${i + 1} of the second context.`,
    ).join(' ');
    socket.send({ text: `${long} `, context_id: 'b' });
    await until(() => socket.messages.some((m) => m.contextId === 'b' && m.audio));
    socket.send({ context_id: 'b', close_context: true });
    await until(() => socket.messages.some((m) => m.contextId === 'b' && m.isFinal));
    const bAudioAtClose = socket.messages.filter((m) => m.contextId === 'b' && m.audio).length;
    socket.send({ context_id: 'a', text: 'And it goes on. ', flush: true });
    socket.send({ close_socket: true });
    const closed = await socket.closed;
    expect(closed.code).toBe(WS_CLOSE.normal);
    // Nothing more of b after its close; a finished with its final message.
    expect(socket.messages.filter((m) => m.contextId === 'b' && m.audio).length).toBe(bAudioAtClose);
    expect(bAudioAtClose).toBeLessThan(sentences);
    const a = socket.messages.filter((m) => m.contextId === 'a');
    expect(a.at(-1)).toEqual({ isFinal: true, contextId: 'a' });
    expect(
      a
        .map((m) => m.alignment?.chars.join('') ?? '')
        .join('')
        .replace(/\s+/g, ' ')
        .trim(),
    ).toBe('This is the first context speaking. And it goes on.');
    // Charged: a's two generations, and only what of b was spoken before the close.
    const after = (await characterCountOf(t.deps.database.db, account.workspaceId)) ?? 0;
    const aChars = 'This is the first context speaking.'.length + 'And it goes on.'.length;
    expect(after - (before ?? 0)).toBeGreaterThanOrEqual(aChars);
    expect(after - (before ?? 0)).toBeLessThan(aChars + long.length);
  });

  it('a client that drops mid-generation pays for the sentences whose audio was sent, nothing more', async () => {
    // Issue 26 item 9: 20 sentences in one message used to be charged only once all their audio was sent,
    // and refunded when the client dropped first (51 s of 55 s of audio for nothing).
    const account = await newSpeechAccount(t.app, baseUrl);
    const db = t.deps.database.db;
    const before = (await characterCountOf(db, account.workspaceId)) ?? 0;
    const sentences = Array.from({ length: 20 }, (_, i) => `This is sentence ${i + 1} of a long story. `);
    const text = sentences.join('');
    const socket = open(`/v1/text-to-speech/${VOICE}/stream-input?output_format=pcm_16000`, {
      'xi-api-key': account.key,
    });
    await socket.opened;
    socket.send({ text });
    const received = () => socket.messages.filter((m) => m.alignment);
    await until(() => received().length >= 3);
    socket.ws.terminate();
    const read = received().length;
    // The characters through the end of each sentence (the piece is charged without the space after it).
    const through = (m: number) => sentences.slice(0, m).join('').trim().length;
    // The alignments of the messages read are the text's first sentences, in order.
    expect(
      received()
        .map((m) => m.alignment?.chars.join('') ?? '')
        .join('')
        .trim(),
    ).toBe(sentences.slice(0, read).join('').trim());
    // The server notices the drop and stops: nothing of the workspace's stays open.
    const deadline = Date.now() + 20_000;
    while (
      (await db.select().from(concurrencySlots).where(eq(concurrencySlots.workspaceId, account.workspaceId)))
        .length > 0
    ) {
      if (Date.now() > deadline) throw new Error('the socket’s slots were never released');
      await new Promise((r) => setTimeout(r, 50));
    }
    const charged = ((await characterCountOf(db, account.workspaceId)) ?? 0) - before;
    // Exactly the sentences whose audio went out: those read, and any the server sent before it saw the
    // drop — never a part of one, never what was not sent.
    const possible = Array.from({ length: sentences.length - read }, (_, i) => through(read + i));
    expect(possible).toContain(charged);
    // The ledger: one charge for the generation, the rest refunded.
    const ledger = await db
      .select({ kind: creditLedger.kind, amount: creditLedger.amount })
      .from(creditLedger)
      .where(eq(creditLedger.workspaceId, account.workspaceId));
    expect(ledger).toHaveLength(2);
    expect(ledger).toEqual(
      expect.arrayContaining([
        { kind: 'charge', amount: text.trim().length },
        { kind: 'refund', amount: text.trim().length - charged },
      ]),
    );
  });

  it('bad input: each ends its socket with the protocol’s error, and the server serves on', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const headers = { 'xi-api-key': account.key };
    const cases: { send: unknown; error: string }[] = [
      { send: 'this is not json', error: 'invalid_input_message' },
      { send: { text: 'hello ', unknown_field: 1 }, error: 'invalid_input_message' },
      { send: { text: 42 }, error: 'invalid_input_message' },
      { send: 'x'.repeat(10 * 1024 * 1024), error: 'message_too_large' },
      { send: `{"text":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, error: 'invalid_input_message' },
      { send: { close_socket: true }, error: 'invalid_input_message' },
    ];
    for (const c of cases) {
      const socket = open(`/v1/text-to-speech/${VOICE}/stream-input`, headers);
      await socket.opened;
      socket.send(c.send);
      const closed = await socket.closed;
      expect(closed.code, JSON.stringify(c.send).slice(0, 40)).toBe(WS_CLOSE.policyViolation);
      expect(socket.messages.at(-1)?.error).toBe(c.error);
    }
    // A wrong key, an unknown voice, a bad query: refused at once.
    for (const [path, h, error] of [
      [`/v1/text-to-speech/${VOICE}/stream-input`, { 'xi-api-key': 'sk_wrong' }, 'invalid_api_key'],
      ['/v1/text-to-speech/nope/stream-input', headers, 'voice_not_found'],
      [`/v1/text-to-speech/${VOICE}/stream-input?inactivity_timeout=999`, headers, 'invalid_request'],
    ] as const) {
      const socket = open(path, h);
      socket.ws.on('open', () => socket.send({ text: 'Hello. ' }));
      await socket.closed;
      expect(socket.messages.at(-1)?.error).toBe(error);
    }
    // The server is up and speaks.
    const ok = open(`/v1/text-to-speech/${VOICE}/stream-input?output_format=pcm_16000`, headers);
    await ok.opened;
    ok.send({ text: 'Still here. ' });
    ok.send({ text: '' });
    expect((await ok.closed).code).toBe(WS_CLOSE.normal);
    expect(audioOf(ok.messages).length).toBeGreaterThan(0);
  });

  it('single-use tokens open one socket; a key revoked mid-socket ends it', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const { token } = await account.sdk.tokens.singleUse.create('tts_websocket');
    const first = open(
      `/v1/text-to-speech/${VOICE}/stream-input?output_format=pcm_16000&single_use_token=${token}`,
    );
    await first.opened;
    first.send({ text: 'Hello from a browser. ' });
    first.send({ text: '' });
    expect((await first.closed).code).toBe(WS_CLOSE.normal);
    expect(audioOf(first.messages).length).toBeGreaterThan(0);
    const again = open(`/v1/text-to-speech/${VOICE}/stream-input?single_use_token=${token}`);
    await again.closed;
    expect(again.messages.at(-1)?.error).toBe('unauthorized');

    const socket = open(`/v1/text-to-speech/${VOICE}/stream-input?output_format=pcm_16000`, {
      'xi-api-key': account.key,
    });
    await socket.opened;
    socket.send({ text: 'One sentence first. ' });
    await until(() => socket.messages.some((m) => m.audio));
    const keys = (await (
      await fetch(`${baseUrl}/v1/user/api-keys`, { headers: { authorization: `Bearer ${account.token}` } })
    ).json()) as {
      api_keys: { key_id: string }[];
    };
    for (const key of keys.api_keys) {
      await fetch(`${baseUrl}/v1/user/api-keys/${key.key_id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${account.token}` },
      });
    }
    socket.send({ text: 'And another one. ' });
    const closed = await socket.closed;
    expect(closed.code).toBe(WS_CLOSE.policyViolation);
    expect(socket.messages.at(-1)?.error).toBe('invalid_api_key');
  });
});
