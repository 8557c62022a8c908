import { WS_CLOSE } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EngineFailure } from '../../providers/engines/engine-pool';
import type { RealtimeRecogniser, SttProvider } from '../../providers/stt/stt-provider';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { characterCountOf, newSpeechAccount, premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech } from '../../test/test-signals';

/** The tests below hear speech with the real models: skipped, with the reason, where they are unavailable. */
const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');

/*
 * The realtime sockets' bounds (issue 20 item 1), on a server whose operator shortened them
 * (REALTIME_MAX_SECONDS=3, REALTIME_IDLE_SECONDS=1; 60 minutes and 60 s by default): a text-to-speech
 * socket and a transcription session end at the maximum duration with their protocol's error, a silent
 * session is closed, audio sent much faster than real time is refused with `queue_overflow`, and engines
 * too busy to take a session's speech end it with `resource_exhausted`.
 */

const RATE = 16_000;
let t: TestApp;
let baseUrl: string;
let wsBase: string;
let speech: Int16Array;

beforeAll(async () => {
  t = await createTestApp({
    env: { REALTIME_MAX_SECONDS: '3', REALTIME_IDLE_SECONDS: '1', ENGINE_TIMEOUT_MS: '60000' },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = baseUrl.replace('http', 'ws');
  speech = (await fliteSpeech('slt', 'The weather is nice today and the children are playing in the park.'))
    .samples;
}, 60_000);
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const base64 = (samples: Int16Array) =>
  Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64');

type Message = Record<string, unknown>;

function open(path: string, key: string) {
  const ws = new WebSocket(`${wsBase}${path}`, { headers: { 'xi-api-key': key } });
  const messages: Message[] = [];
  /** When each message arrived (Date.now()), in step with `messages`. */
  const arrivals: number[] = [];
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as Message);
    arrivals.push(Date.now());
  });
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; at: number }>((resolve) =>
    ws.on('close', (code) => resolve({ code, at: Date.now() })),
  );
  const opened = new Promise((resolve) => ws.once('open', resolve));
  return { ws, messages, arrivals, closed, opened };
}

async function started(socket: ReturnType<typeof open>) {
  const deadline = Date.now() + 20_000;
  while (!socket.messages.some((m) => m.message_type === 'session_started')) {
    if (Date.now() > deadline) throw new Error(`no session_started: ${JSON.stringify(socket.messages)}`);
    await sleep(20);
  }
}

/**
 * Runs `body` while the server's realtime recogniser answers with `recogniseSpans` (the voice activity
 * stays the real one), then puts the real provider back.
 */
async function withRecogniser(
  recogniseSpans: RealtimeRecogniser['recogniseSpans'],
  body: () => Promise<void>,
): Promise<void> {
  const providers = t.deps.providers as { stt: SttProvider };
  const real = providers.stt;
  const realtime = real.realtime;
  if (!realtime) throw new Error('the built-in provider transcribes live audio');
  providers.stt = Object.assign(Object.create(real) as SttProvider, {
    realtime: { openVoiceActivity: realtime.openVoiceActivity.bind(realtime), recogniseSpans },
  });
  try {
    await body();
  } finally {
    providers.stt = real;
  }
}

const chunk = (samples: Int16Array) =>
  JSON.stringify({ message_type: 'input_audio_chunk', audio_base_64: base64(samples) });

describe('realtime socket bounds', () => {
  it('a text-to-speech socket ends at its maximum duration with max_duration_exceeded', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    // Alan speaks Flite (no neural rendition): cheap, as this test is about the socket's clock.
    const voice = premadeVoiceId('Alan');
    // The server's timer starts when it takes the socket: after this.
    const openedAt = Date.now();
    const socket = open(`/v1/text-to-speech/${voice}/stream-input?inactivity_timeout=180`, account.key);
    await socket.opened;
    socket.ws.send(JSON.stringify({ text: ' ' }));
    // Busy, not idle: a word every half second, never a sentence end (nothing is spoken).
    const typing = setInterval(() => socket.ws.send(JSON.stringify({ text: 'and ' })), 500);
    const closed = await socket.closed;
    clearInterval(typing);
    expect(closed.code).toBe(WS_CLOSE.policyViolation);
    expect(closed.at - openedAt).toBeGreaterThanOrEqual(2950);
    expect(socket.messages.at(-1)).toEqual({
      message: 'This socket reached its maximum duration of 3 s.',
      error: 'max_duration_exceeded',
      code: WS_CLOSE.policyViolation,
    });
    expect((await characterCountOf(t.deps.database.db, account.workspaceId)) ?? 0).toBe(0);
  });

  it('a transcription session ends at its maximum duration with session_time_limit_exceeded', async (context) => {
    skipWithout(context, noModel);
    const account = await newSpeechAccount(t.app, baseUrl);
    const openedAt = Date.now();
    const socket = open(
      '/v1/speech-to-text/realtime?model_id=parla_stt_v1&enable_logging=false',
      account.key,
    );
    await socket.opened;
    // Silence, in real time from the opening (what comes before the session starts is kept for it): the
    // session is in use, not idle, however long its start takes.
    const feeding = setInterval(() => socket.ws.send(chunk(new Int16Array(RATE / 4))), 250);
    const closed = await socket.closed;
    clearInterval(feeding);
    expect(closed.code).toBe(WS_CLOSE.policyViolation);
    expect(closed.at - openedAt).toBeGreaterThanOrEqual(2950);
    expect(socket.messages.at(-1)).toMatchObject({
      message_type: 'session_time_limit_exceeded',
      error: 'A session lasts at most 3 s; open a new one to go on.',
    });
  });

  it('a session that receives nothing is closed after the idle bound', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const socket = open(
      '/v1/speech-to-text/realtime?model_id=parla_stt_v1&enable_logging=false',
      account.key,
    );
    const closed = await socket.closed;
    expect(socket.messages[0]?.message_type).toBe('session_started');
    // The idle timer starts as session_started is sent; the message says which bound closed it.
    expect(closed.at - (socket.arrivals[0] as number)).toBeGreaterThanOrEqual(950);
    expect(socket.messages.at(-1)).toMatchObject({
      message_type: 'error',
      error: 'No audio for 1 s; the session was closed.',
    });
  });

  it('audio sent far faster than real time is refused with queue_overflow', async (context) => {
    skipWithout(context, noModel);
    const account = await newSpeechAccount(t.app, baseUrl);
    // A recogniser that answers only once the session is over, so what waits is exactly what was sent,
    // however fast this machine transcribes; it answers (nothing heard) before the test ends.
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const slow = async () => {
      await held;
      return [];
    };
    await withRecogniser(slow, async () => {
      const socket = open(
        '/v1/speech-to-text/realtime?model_id=parla_stt_v1&commit_strategy=manual&enable_logging=false',
        account.key,
      );
      await started(socket);
      // 70 s of speech in one burst of 1-second chunks: far more than the 60 s the server lets wait.
      const second = RATE;
      for (let sent = 0; sent < 70 * second; sent += second) {
        const at = sent % speech.length;
        const piece = speech.subarray(at, Math.min(at + second, speech.length));
        socket.ws.send(chunk(piece));
      }
      const closed = await socket.closed;
      expect(closed.code).toBe(WS_CLOSE.policyViolation);
      expect(socket.messages.at(-1)).toMatchObject({ message_type: 'queue_overflow' });
      expect(String(socket.messages.at(-1)?.error)).toMatch(/60 s of audio is waiting/);
      answer();
      await sleep(200);
    });
  }, 30_000);

  it('engines too busy for a session end it with resource_exhausted (1013), charging nothing', async (context) => {
    skipWithout(context, noModel);
    const account = await newSpeechAccount(t.app, baseUrl);
    // The pool's answer when its queue wait runs out (engine-pool tests cover when that happens).
    const busy = () => Promise.reject(new EngineFailure('busy', 'every engine is busy'));
    await withRecogniser(busy, async () => {
      const socket = open(
        '/v1/speech-to-text/realtime?model_id=parla_stt_v1&commit_strategy=manual&enable_logging=false',
        account.key,
      );
      await started(socket);
      socket.ws.send(chunk(speech.subarray(0, RATE)));
      socket.ws.send(JSON.stringify({ message_type: 'input_audio_chunk', audio_base_64: '', commit: true }));
      const closed = await socket.closed;
      expect(closed.code).toBe(WS_CLOSE.tryAgainLater);
      expect(socket.messages.at(-1)).toMatchObject({ message_type: 'resource_exhausted' });
      expect((await characterCountOf(t.deps.database.db, account.workspaceId)) ?? 0).toBe(0);
    });
  });
});
