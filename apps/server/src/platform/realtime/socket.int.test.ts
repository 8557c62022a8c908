import { once } from 'node:events';
import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { WS_CLOSE } from '@parla/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { concurrencySlots } from '../../modules/credits/credits.tables';
import { signUpWithApiKey } from '../../test/factories';
import { premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { AppError } from '../errors';
import { HIGH_WATER_BYTES, MAX_FRAME_BYTES, openSocketCount, RealtimeSocket } from './socket';
import { socketRoute } from './websocket';

/*
 * The socket foundation of issue 20: single-use tokens (issued through the official client, accepted once,
 * for their own type only), authentication of a socket, messages handled in order (also those sent before
 * authentication finished), and back-pressure: a client that stops reading does not grow what the server
 * holds for it past the bound.
 */

let t: TestApp;
let baseUrl: string;
let wsUrl: string;
/** The app's log lines at warn and above. */
const logs: { level: number; msg: string; err?: { code?: string; message?: string } }[] = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: 'warn' },
    logDestination: { write: (line: string) => void logs.push(JSON.parse(line)) },
    extend: (app, deps) => {
      socketRoute(app, '/v1/test/socket-throws', () => {
        throw new Error('a handler bug');
      });
      // A socket that authenticates like the realtime ones, then echoes, or floods on "flood".
      socketRoute(app, '/v1/test/socket', (ws, request) => {
        const socket = new RealtimeSocket(ws, {
          logger: deps.logger,
          maxDurationMs: 60_000,
          onExpired: () => socket.close(),
        });
        const query = request.query as { token?: string };
        deps.auth
          .authenticateSocket({
            apiKey: request.headers['xi-api-key'] as string | undefined,
            token: query.token,
            tokenType: 'realtime_scribe',
          })
          .then((principal) => {
            socket.send({ message_type: 'hello', workspace_id: principal.workspaceId, via: principal.via });
            socket.onMessage(async (message) => {
              if ('text' in message && message.text === 'flood') {
                const block = 'x'.repeat(256 * 1024);
                for (let i = 0; i < 400; i += 1) {
                  if (!(await socket.writable())) return;
                  socket.send({ block, i, buffered: socket.buffered });
                }
                return;
              }
              socket.send({ echo: 'text' in message ? message.text : message.binary.length });
            });
          })
          .catch((error: unknown) => {
            socket.fail(
              { message_type: 'auth_error', error: error instanceof AppError ? error.message : 'failed' },
              WS_CLOSE.policyViolation,
              'Authentication failed',
            );
          });
      });
    },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = baseUrl.replace('http', 'ws');
});
afterAll(() => t.close());

/** Opens a socket and collects its messages and its close. */
function connect(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return { ws, messages, closed, opened: once(ws, 'open') };
}

const until = async (check: () => boolean, ms = 5000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const eventually = async (check: () => Promise<boolean>, ms = 10_000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('realtime sockets', () => {
  it('issues single-use tokens through the official client; each opens one socket of its type', async () => {
    const account = await signUpWithApiKey(t.app);
    const client = new ElevenLabsClient({ apiKey: account.apiKey, baseUrl });
    const { token } = await client.tokens.singleUse.create('realtime_scribe');
    expect(token).toMatch(/^sutkn_/);

    const first = connect(`${wsUrl}/v1/test/socket?token=${token}`);
    await until(() => first.messages.length > 0);
    expect(first.messages[0]).toEqual({
      message_type: 'hello',
      workspace_id: account.workspaceId,
      via: 'single_use_token',
    });
    first.ws.close();

    // Used once: the second socket is refused with the protocol's error, then closed with 1008.
    const second = connect(`${wsUrl}/v1/test/socket?token=${token}`);
    expect(await second.closed).toMatchObject({ code: WS_CLOSE.policyViolation });
    expect(second.messages[0]).toMatchObject({ message_type: 'auth_error' });

    // A token of another type opens nothing here; an unknown type is refused when asked for.
    const { token: ttsToken } = await client.tokens.singleUse.create('tts_websocket');
    const wrongType = connect(`${wsUrl}/v1/test/socket?token=${ttsToken}`);
    expect(await wrongType.closed).toMatchObject({ code: WS_CLOSE.policyViolation });
    const unknownType = await fetch(`${baseUrl}/v1/single-use-token/batch_scribe`, {
      method: 'POST',
      headers: { 'xi-api-key': account.apiKey },
    });
    expect(unknownType.status).toBe(422);
    expect(((await unknownType.json()) as { detail: { status: string } }).detail.status).toBe(
      'invalid_request',
    );
    // Without a caller, no token.
    const anonymous = await fetch(`${baseUrl}/v1/single-use-token/realtime_scribe`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
  });

  it('refuses an expired token, and a token whose key was deleted', async () => {
    const account = await signUpWithApiKey(t.app);
    const client = new ElevenLabsClient({ apiKey: account.apiKey, baseUrl });
    const { token: expired } = await client.tokens.singleUse.create('realtime_scribe');
    await t.deps.database.db.execute(
      sql`UPDATE single_use_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
    );
    const late = connect(`${wsUrl}/v1/test/socket?token=${expired}`);
    expect(await late.closed).toMatchObject({ code: WS_CLOSE.policyViolation });

    const { token } = await client.tokens.singleUse.create('realtime_scribe');
    const keys = (await (
      await fetch(`${baseUrl}/v1/user/api-keys`, {
        headers: { authorization: `Bearer ${account.accessToken}` },
      })
    ).json()) as { api_keys: { key_id: string }[] };
    for (const key of keys.api_keys) {
      await fetch(`${baseUrl}/v1/user/api-keys/${key.key_id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${account.accessToken}` },
      });
    }
    const orphan = connect(`${wsUrl}/v1/test/socket?token=${token}`);
    expect(await orphan.closed).toMatchObject({ code: WS_CLOSE.policyViolation });
    expect(orphan.messages[0]).toMatchObject({ message_type: 'auth_error' });
  });

  it('handles messages in order, those sent before authentication finished too', async () => {
    const account = await signUpWithApiKey(t.app);
    const socket = connect(`${wsUrl}/v1/test/socket`, { 'xi-api-key': account.apiKey });
    await socket.opened;
    for (let i = 0; i < 5; i += 1) socket.ws.send(`m${i}`);
    await until(() => socket.messages.length >= 6);
    expect(socket.messages.slice(1).map((m) => m.echo)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    socket.ws.close();
    await socket.closed;
    await until(() => openSocketCount() === 0);
  });

  it('a client that stops reading holds at most the bound on the server', async () => {
    const account = await signUpWithApiKey(t.app);
    const socket = connect(`${wsUrl}/v1/test/socket`, { 'xi-api-key': account.apiKey });
    await socket.opened;
    await until(() => socket.messages.length >= 1);
    // Stop reading: the client's socket is paused, so the server's send buffer fills.
    const raw = (socket.ws as unknown as { _socket: import('node:net').Socket })._socket;
    raw.pause();
    socket.ws.send('flood');
    await new Promise((r) => setTimeout(r, 1500));
    raw.resume();
    await until(() => socket.messages.length >= 401, 30_000);
    const buffered = socket.messages.slice(1).map((m) => m.buffered as number);
    // Each message was sent only while the server held at most the high-water mark for the client.
    expect(Math.max(...buffered)).toBeLessThanOrEqual(HIGH_WATER_BYTES);
    // …and the pause did fill it (the sender waited for the client, rather than never having to).
    expect(Math.max(...buffered)).toBeGreaterThan(HIGH_WATER_BYTES / 2);
    socket.ws.close();
  });

  it('counts open sockets of both protocols against the plan’s concurrency; a closed one frees its place', async () => {
    // Issue 26 item 9: one key held 200 realtime sessions. Free allows 2 at a time (accounts §9).
    const account = await signUpWithApiKey(t.app);
    const headers = { 'xi-api-key': account.apiKey };
    const stt = () =>
      connect(`${wsUrl}/v1/speech-to-text/realtime?model_id=parla_stt_v1&enable_logging=false`, headers);
    const tts = () =>
      connect(
        `${wsUrl}/v1/text-to-speech/${premadeVoiceId('Charlie') || premadeVoiceId('Kevin')}/stream-input?output_format=pcm_16000`,
        headers,
      );
    const started = (socket: ReturnType<typeof connect>) =>
      until(() => socket.messages.some((m) => m.message_type === 'session_started'), 30_000);
    // How a socket's opening ends: its close, or 'accepted' (a session started, or still open after 10 s).
    const refusedOrAccepted = (socket: ReturnType<typeof connect>) =>
      Promise.race([
        socket.closed,
        until(() => socket.messages.some((m) => m.message_type === 'session_started'), 10_000).then(
          () => 'accepted',
          () => 'accepted',
        ),
      ]);
    const slots = async () =>
      (
        await t.deps.database.db
          .select()
          .from(concurrencySlots)
          .where(eq(concurrencySlots.workspaceId, account.workspaceId))
      ).length;
    const first = stt();
    const second = stt();
    await Promise.all([started(first), started(second)]);
    // Over the limit: each protocol's documented error, then 1013 (try again later).
    const third = stt();
    expect(await refusedOrAccepted(third)).toMatchObject({ code: WS_CLOSE.tryAgainLater });
    expect(third.messages).toEqual([
      {
        message_type: 'rate_limited',
        error: expect.stringContaining('your plan allows 2 at a time') as string,
      },
    ]);
    const fourth = tts();
    expect(await refusedOrAccepted(fourth)).toMatchObject({ code: WS_CLOSE.tryAgainLater });
    expect(fourth.messages).toEqual([
      {
        message: expect.stringContaining('your plan allows 2 at a time') as string,
        error: 'too_many_concurrent_requests',
        code: WS_CLOSE.tryAgainLater,
      },
    ]);
    // One closes: its place is free for a socket of either kind.
    first.ws.close();
    await first.closed;
    await eventually(async () => (await slots()) <= 1);
    const fifth = tts();
    await fifth.opened;
    fifth.ws.send(JSON.stringify({ text: 'Hello there. ' }));
    await until(() => fifth.messages.some((m) => m.audio), 30_000).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${JSON.stringify(fifth.messages).slice(0, 300)}`);
    });
    // Its generation runs within the socket's place: a transcription session is still one too many.
    const sixth = stt();
    expect(await refusedOrAccepted(sixth)).toMatchObject({ code: WS_CLOSE.tryAgainLater });
    expect(sixth.messages[0]).toMatchObject({ message_type: 'rate_limited' });
    fifth.ws.close();
    second.ws.close();
    await Promise.all([fifth.closed, second.closed]);
    await eventually(async () => (await slots()) === 0);
  });

  it('refuses a socket without credentials with the protocol’s error', async () => {
    const socket = connect(`${wsUrl}/v1/test/socket`);
    const closed = await socket.closed;
    expect(closed.code).toBe(WS_CLOSE.policyViolation);
    expect(socket.messages[0]).toMatchObject({ message_type: 'auth_error' });
  });

  it('a frame over the limit is the client’s fault: a warning, never an error; a handler that throws is ours (issue 26 item 9)', async () => {
    const account = await signUpWithApiKey(t.app);
    const from = logs.length;
    const big = connect(`${wsUrl}/v1/test/socket`, { 'xi-api-key': account.apiKey });
    big.ws.on('error', () => undefined);
    await big.opened;
    big.ws.send(Buffer.alloc(MAX_FRAME_BYTES + 1));
    await big.closed;
    const tooLarge = (l: (typeof logs)[number]) => l.err?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';
    await until(() => logs.slice(from).some(tooLarge));
    // (Other lines may come first: the public-origin notice on the first request of a run.)
    expect(logs.slice(from).flatMap((l) => (l.err ? [[l.level, l.err.code]] : []))).toEqual([
      [40, 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'],
    ]);

    const broken = connect(`${wsUrl}/v1/test/socket-throws`);
    broken.ws.on('error', () => undefined);
    await broken.closed;
    await until(() => logs.some((l) => l.err?.message === 'a handler bug'));
    expect(logs.find((l) => l.err?.message === 'a handler bug')?.level).toBe(50);
  });
});
