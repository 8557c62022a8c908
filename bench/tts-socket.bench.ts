/**
 * Text to speech over the input-streaming WebSocket (issue 20 "Performance"), through the built server as
 * `npm start` runs it:
 * - time from sending a complete first sentence (with `flush`) to the first audio message, against the
 *   engine alone speaking that sentence in an engine child (EnginePool.synthesize from this process),
 *   measured alternately in the same run: median and p95, ratio of medians ≤ 1.3;
 * - the same with 8 sockets sending at once: p95 under 3× the single-socket median;
 * - memory: 100 idle sockets (open, authenticated, initialised) cost the server under 50 MB of RSS;
 * - a client that stops reading while the server has a long text to speak for it: the server's RSS stays
 *   within the stated bound (RealtimeSocket's 1 MiB high-water mark plus one message, per socket), and the
 *   socket is closed once the client has read nothing for 30 s.
 */
import fs from 'node:fs';
import type net from 'node:net';
import WebSocket from 'ws';
import { engineProsody } from '../apps/server/src/modules/tts/speech-pipeline';
import { DEFAULT_VOICE_SETTINGS } from '../apps/server/src/modules/voices/voices.service';
import { createLogger } from '../apps/server/src/platform/logger';
import { EnginePool } from '../apps/server/src/providers/engines/engine-pool';
import { tierLimits } from '../packages/contracts/src/plans';
import { type EngineVoice, PREMADE_VOICES } from '../packages/contracts/src/tts-catalog';
import { type Server, sleep, startParla } from './server';

const SENTENCE = 'The meeting has been moved to Thursday afternoon.';
const RUNS = 20;
const WARMUP = 3;
const CONCURRENT = 8;
const ROUNDS = 5;
const IDLE_SOCKETS = 100;
/** The enterprise plan's concurrency (accounts §9: Business's 15): sockets open at once per workspace. */
const PLACES_PER_WORKSPACE = tierLimits.enterprise.concurrency;
const TARGET = { ratio: 1.3, concurrentP95x: 3, idleMb: 50, stalledMb: 40 };

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const ms = (value: number) => `${value.toFixed(0)} ms`;
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

const premade = (name: string) => {
  const voice = PREMADE_VOICES.find((v) => v.name === name);
  if (!voice) throw new Error(`no premade voice ${name}`);
  return voice;
};

/** The server's resident memory, MB (the engine children and program hosts are processes of their own). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Socket {
  ws: WebSocket;
  /** Resolves with the time the first audio message arrived. */
  firstAudio: Promise<number>;
  closed: Promise<void>;
}

async function openSocket(
  server: Server,
  voiceId: string,
  query = '',
  apiKey = server.apiKey,
): Promise<Socket> {
  const ws = new WebSocket(
    `${server.url.replace('http', 'ws')}/v1/text-to-speech/${voiceId}/stream-input?model_id=parla_v1&inactivity_timeout=180${query}`,
    { headers: { 'xi-api-key': apiKey } },
  );
  let resolveFirst: (at: number) => void = () => undefined;
  let rejectFirst: (error: Error) => void = () => undefined;
  const firstAudio = new Promise<number>((resolve, reject) => {
    resolveFirst = resolve;
    rejectFirst = reject;
  });
  firstAudio.catch(() => undefined);
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { audio?: string; error?: string; message?: string };
    if (message.error) rejectFirst(new Error(`${message.error}: ${message.message}`));
    if (message.audio) resolveFirst(performance.now());
  });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ text: ' ' }));
  return { ws, firstAudio, closed };
}

/** Sends the sentence with flush on an open, initialised socket: ms to its first audio message. */
async function timeToFirstAudio(socket: Socket): Promise<number> {
  const sent = performance.now();
  socket.ws.send(JSON.stringify({ text: `${SENTENCE} `, flush: true }));
  const at = await socket.firstAudio;
  socket.ws.send(JSON.stringify({ text: '' }));
  await socket.closed;
  return at - sent;
}

function engineRequest(rendition: EngineVoice) {
  return {
    engine: rendition.engine,
    voice: rendition.voice,
    text: SENTENCE,
    ...engineProsody(rendition, {
      speed: DEFAULT_VOICE_SETTINGS.speed,
      stability: DEFAULT_VOICE_SETTINGS.stability,
      style: DEFAULT_VOICE_SETTINGS.style,
      useSpeakerBoost: DEFAULT_VOICE_SETTINGS.use_speaker_boost,
    }),
  };
}

export async function run(): Promise<void> {
  // An open socket holds one of its workspace's concurrency places (enterprise: 15): the idle sockets are
  // spread over enough workspaces.
  const server = await startParla({ keys: Math.ceil(IDLE_SOCKETS / PLACES_PER_WORKSPACE) });
  const pool = new EnginePool({ size: 1, timeoutMs: 30_000, logger: createLogger({ level: 'silent' }) });
  await pool.start();
  try {
    console.log(
      `\n## Time to first audio: "${SENTENCE}" sent with flush on an open socket (mp3_44100_128), ${RUNS} runs after ${WARMUP} warm-up`,
    );
    console.log(
      'baseline: the engine alone on that sentence, in an engine child, alternating with the socket runs',
    );
    console.log(
      `${'voice'.padEnd(22)} ${'engine p50'.padStart(10)} ${'socket p50'.padStart(10)} ${'socket p95'.padStart(10)} ${'ratio'.padStart(6)}  target ≤ ${TARGET.ratio}`,
    );
    const singleMedian = new Map<string, number>();
    for (const name of process.env.BENCH_SKIP_SINGLE ? [] : ['Lily', 'Sarah']) {
      const voice = premade(name);
      const engine: number[] = [];
      const socket: number[] = [];
      for (let i = 0; i < WARMUP + RUNS; i++) {
        await sleep(200);
        const started = performance.now();
        await pool.synthesize(engineRequest(voice.primary));
        const engineMs = performance.now() - started;
        const s = await openSocket(server, voice.voice_id);
        await sleep(150);
        const socketMs = await timeToFirstAudio(s);
        if (i < WARMUP) continue;
        engine.push(engineMs);
        socket.push(socketMs);
      }
      const ratio = quantile(socket, 0.5) / quantile(engine, 0.5);
      singleMedian.set(name, quantile(socket, 0.5));
      console.log(
        `${`${name} (${voice.primary.engine})`.padEnd(22)} ${ms(quantile(engine, 0.5)).padStart(10)} ${ms(quantile(socket, 0.5)).padStart(10)} ${ms(quantile(socket, 0.95)).padStart(10)} ${ratio.toFixed(2).padStart(6)}  ${verdict(ratio <= TARGET.ratio)}`,
      );
    }

    console.log(`\n## ${CONCURRENT} sockets at once, ${ROUNDS} rounds: time to first audio`);
    for (const name of ['Lily', 'Sarah']) {
      const voice = premade(name);
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const sockets = await Promise.all(
          Array.from({ length: CONCURRENT }, () => openSocket(server, voice.voice_id)),
        );
        // The sockets' opening (authentication, the voice's checks) is over before the clock starts.
        await sleep(1000);
        times.push(...(await Promise.all(sockets.map((s) => timeToFirstAudio(s)))));
        await sleep(300);
      }
      const single = singleMedian.get(name) ?? 165;
      const p95 = quantile(times, 0.95);
      console.log(
        `${name.padEnd(8)} p50 ${ms(quantile(times, 0.5))}, p95 ${ms(p95)} = ${(p95 / single).toFixed(2)}× the single-socket median (${ms(single)}); target < ${TARGET.concurrentP95x}×: ${verdict(p95 < TARGET.concurrentP95x * single)}`,
      );
    }

    console.log(`\n## Memory: ${IDLE_SOCKETS} idle sockets (open, authenticated, initialised)`);
    await sleep(2000);
    const before = rssMb(server.pid);
    const idle = await Promise.all(
      Array.from({ length: IDLE_SOCKETS }, (_, i) =>
        openSocket(
          server,
          premade('Lily').voice_id,
          '',
          server.apiKeys[Math.floor(i / PLACES_PER_WORKSPACE)],
        ),
      ),
    );
    await sleep(3000);
    const after = rssMb(server.pid);
    console.log(
      `server RSS ${before.toFixed(1)} MB → ${after.toFixed(1)} MB: ${(after - before).toFixed(1)} MB for ${IDLE_SOCKETS} sockets (${(((after - before) * 1024) / IDLE_SOCKETS).toFixed(0)} KB each); target < ${TARGET.idleMb} MB: ${verdict(after - before < TARGET.idleMb)}`,
    );
    for (const s of idle) s.ws.close();
    await Promise.all(idle.map((s) => s.closed));

    console.log('\n## A client that stops reading (pcm_44100: ~88 KB of audio a second of speech)');
    await sleep(2000);
    const base = rssMb(server.pid);
    const stalled = await openSocket(server, premade('Lily').voice_id, '&output_format=pcm_44100');
    const raw = (stalled.ws as unknown as { _socket: net.Socket })._socket;
    raw.pause();
    const long = Array.from(
      { length: 60 },
      (_, i) => `This is sentence number ${i + 1} of a long text nobody reads.`,
    ).join(' ');
    stalled.ws.send(JSON.stringify({ text: `${long} `, flush: true }));
    let peak = base;
    const started = performance.now();
    let closedAt: number | undefined;
    void stalled.closed.then(() => {
      closedAt = performance.now();
    });
    while (performance.now() - started < 45_000 && closedAt === undefined) {
      peak = Math.max(peak, rssMb(server.pid));
      await sleep(250);
      // The closing handshake needs the client to read again once the server gave up.
      if (performance.now() - started > 36_000) raw.resume();
    }
    raw.resume();
    console.log(
      `server RSS ${base.toFixed(1)} MB, at most ${peak.toFixed(1)} MB while the client read nothing (+${(peak - base).toFixed(1)} MB; target < ${TARGET.stalledMb} MB: ${verdict(peak - base < TARGET.stalledMb)}); ` +
        `the socket closed ${closedAt === undefined ? 'not within 45 s' : `after ${((closedAt - started) / 1000).toFixed(1)} s`}`,
    );
  } finally {
    await pool.stop();
    await server.stop();
  }
}
