/**
 * Memory of realtime transcription sessions (issue 26 item 9: one key held 200 sessions, 2.2 MB of server
 * memory per idle session, 5.7 MB after a second of audio, and it stayed after they closed), through the
 * built server as `npm start` runs it. 200 sessions of `/v1/speech-to-text/realtime` (pcm_16000,
 * commit_strategy manual, enable_logging=false) are open at once, spread over enough enterprise workspaces
 * (an open socket holds one of its workspace's concurrency places: 15 each). Resident memory (VmRSS) of
 * the server process, and apart the sum over its descendants (the engine children; the voice-activity
 * process), is read:
 * - before: the idle server, once one session has run and closed (what the first session starts once —
 *   the voice-activity detector's process, its model — is not a session's);
 * - idle: the 200 sessions open (session_started), no audio;
 * - audio: each session has been sent 1 s of audio (ten 100 ms chunks at real-time pace, every session at
 *   once; quiet noise, so the detector runs on every window and no speech reaches the recognisers) and a
 *   commit, and has its (empty) committed transcript: every chunk was handled;
 * - after: every session closed, read each second for 60 s: at 5, 30 and 60 s, and the lowest. The
 *   server's heap holds the sessions' garbage until the collector runs, when it will (a forced collection
 *   there took the server below `before`); the lowest reading is what it could not give back.
 * Per session: (idle − before) / 200 and (audio − before) / 200. Targets: the server's own memory per
 * session with audio under 1 MB, and its lowest reading after the close within 20 MB of `before`.
 */
import WebSocket from 'ws';
import { tierLimits } from '../packages/contracts/src/plans';
import { descendants, rssMb } from './processes';
import { type Server, sleep, startParla } from './server';

const SESSIONS = 200;
const PLACES_PER_WORKSPACE = tierLimits.enterprise.concurrency;
const RATE = 16_000;
const CHUNK_MS = 100;
const AUDIO_MS = 1000;
const TARGET = { perSessionMb: 1, afterMb: 20 };

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

interface Sample {
  server: number;
  children: number;
  processes: number;
}

function sample(pid: number): Sample {
  const kids = descendants(pid);
  return { server: rssMb(pid), children: kids.reduce((n, k) => n + rssMb(k), 0), processes: kids.length };
}

interface Session {
  ws: WebSocket;
  messages: { message_type: string; error?: string }[];
  closed: Promise<void>;
}

function open(server: Server, apiKey: string): Session {
  const ws = new WebSocket(
    `${server.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model_id=parla_stt_v1&audio_format=pcm_16000&commit_strategy=manual&enable_logging=false`,
    { headers: { 'xi-api-key': apiKey } },
  );
  const messages: Session['messages'] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as Session['messages'][number]));
  ws.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  return { ws, messages, closed };
}

async function until(check: () => boolean, what: string, ms = 120_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const has = (session: Session, type: string) => session.messages.some((m) => m.message_type === type);

/** Quiet noise (about −40 dBFS), seeded: audio the detector reads window by window and finds no speech in. */
function noise(samples: number, seed: number): Int16Array {
  const out = new Int16Array(samples);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < samples; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    out[i] = ((state / 2 ** 32) * 2 - 1) * 330;
  }
  return out;
}

const chunkMessage = (samples: Int16Array, commit = false) =>
  JSON.stringify({
    message_type: 'input_audio_chunk',
    audio_base_64: Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64'),
    commit,
    sample_rate: RATE,
  });

/** Opens sessions, at most 20 at a time in their opening, and waits for each to start. */
async function openAll(server: Server, count: number): Promise<Session[]> {
  const sessions: Session[] = [];
  for (let i = 0; i < count; i += 20) {
    const batch = Array.from({ length: Math.min(20, count - i) }, (_, j) =>
      open(server, server.apiKeys[Math.floor((i + j) / PLACES_PER_WORKSPACE)] as string),
    );
    await until(
      () => batch.every((s) => has(s, 'session_started') || s.messages.some((m) => m.error)),
      'session_started',
    );
    const failed = batch.flatMap((s) => s.messages.filter((m) => m.error));
    if (failed.length > 0) throw new Error(`sessions refused: ${JSON.stringify(failed.slice(0, 3))}`);
    sessions.push(...batch);
  }
  return sessions;
}

/** One second of audio into every session at once, at real-time pace, then a commit; waits for its answer. */
async function feedAll(sessions: Session[]): Promise<void> {
  const chunk = (RATE * CHUNK_MS) / 1000;
  const started = performance.now();
  for (let at = 0; at < AUDIO_MS; at += CHUNK_MS) {
    sessions.forEach((s, i) => {
      s.ws.send(chunkMessage(noise(chunk, i * 1000 + at)));
    });
    const wait = started + at + CHUNK_MS - performance.now();
    if (wait > 0) await sleep(wait);
  }
  for (const s of sessions) s.ws.send(chunkMessage(new Int16Array(0), true));
  await until(
    () => sessions.every((s) => has(s, 'committed_transcript') || s.messages.some((m) => m.error)),
    'the commits',
  );
  const failed = sessions.flatMap((s) => s.messages.filter((m) => m.error));
  if (failed.length > 0) throw new Error(`sessions failed: ${JSON.stringify(failed.slice(0, 3))}`);
}

async function closeAll(sessions: Session[]): Promise<void> {
  for (const s of sessions) s.ws.close();
  await Promise.all(sessions.map((s) => s.closed));
}

/** The steadiest reading over `ms`: the last of several, taken once the server has settled. */
async function settled(pid: number, ms = 2000): Promise<Sample> {
  await sleep(ms);
  return sample(pid);
}

const mb = (value: number) => `${value.toFixed(1)} MB`;

export async function run(): Promise<void> {
  const server = await startParla({ keys: Math.ceil(SESSIONS / PLACES_PER_WORKSPACE) });
  try {
    const cold = await settled(server.pid, 3000);
    // One session first: what the first session starts once is not a session's.
    const first = await openAll(server, 1);
    await feedAll(first);
    await closeAll(first);
    const before = await settled(server.pid, 5000);

    const sessions = await openAll(server, SESSIONS);
    const idle = await settled(server.pid);
    await feedAll(sessions);
    const audio = await settled(server.pid);
    await closeAll(sessions);
    const afterClose: Sample[] = [];
    for (let second = 1; second <= 60; second++) {
      await sleep(1000);
      afterClose.push(sample(server.pid));
    }
    const at = (second: number) => afterClose[second - 1] as Sample;
    const lowest = afterClose.reduce((low, s) => (s.server < low.server ? s : low));

    console.log(
      `\n## ${SESSIONS} realtime transcription sessions at once (${Math.ceil(SESSIONS / PLACES_PER_WORKSPACE)} enterprise workspaces, ${PLACES_PER_WORKSPACE} each), VmRSS`,
    );
    console.log('| when | server | per session | descendants (processes) |');
    console.log('| --- | ---: | ---: | ---: |');
    const row = (when: string, s: Sample, perSession = true) =>
      console.log(
        `| ${when} | ${mb(s.server)} | ${perSession ? `${((s.server - before.server) / SESSIONS).toFixed(2)} MB` : '—'} | ${mb(s.children)} (${s.processes}) |`,
      );
    row('cold (started, no session yet)', cold, false);
    row('before (one session ran and closed)', before, false);
    row(`${SESSIONS} sessions open, idle`, idle);
    row(`${SESSIONS} sessions, 1 s of audio each`, audio);
    row('all closed, 5 s later', at(5), false);
    row('all closed, 30 s later', at(30), false);
    row('all closed, 60 s later', at(60), false);
    row('all closed, lowest in 60 s', lowest, false);
    const perSession = (audio.server - before.server) / SESSIONS;
    const kept = lowest.server - before.server;
    const childrenPerSession = (audio.children - before.children) / SESSIONS;
    console.log(
      `server: ${perSession.toFixed(2)} MB per session with audio (target < ${TARGET.perSessionMb}: ${verdict(perSession < TARGET.perSessionMb)}), ` +
        `${((idle.server - before.server) / SESSIONS).toFixed(2)} MB idle; descendants ${childrenPerSession.toFixed(2)} MB per session with audio; ` +
        `after the close the server holds at least ${mb(kept)} more than before (target < ${TARGET.afterMb}: ${verdict(kept < TARGET.afterMb)}), descendants ${mb(at(60).children - before.children)} 60 s after`,
    );
  } finally {
    await server.stop();
  }
}
