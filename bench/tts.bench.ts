/**
 * Text to speech through the real server (issue 4 "Performance"), built and started as `npm start` runs
 * it (the esbuild bundle; from source under tsx the server carries tsx's transforms and source maps, and
 * collects garbage several times as often), on a fresh DATA_DIR, with a user and API key made by the
 * admin command beforehand:
 * - time to first audio byte of `/stream` (mp3_44100_128) for a 200-character text, against the engine
 *   alone speaking that text's first sentence in an engine child (EnginePool.synthesize from this
 *   process: IPC there and back, the engine's work, samples returned), measured in the same run;
 * - real-time factor of `/v1/text-to-speech/{voice}` with 4 concurrent clients (audio seconds counted
 *   from the MP3 frames returned, over wall seconds);
 * - `/health` latency while those 4 clients run (short requests: per-request work included), and while
 *   4 clients send a long text (the engines' work dominates), against the idle server — probed from a
 *   process of its own, so the bench's own work on the clients' answers is not counted as the server's;
 * - word error rate of each English premade voice, heard by the embedded speech to text (Moonshine).
 * Each figure is printed with its target and PASS/FAIL. One voice per engine: Festival, Flite, eSpeak.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { splitSentences, wordErrorRate } from '@parla/audio';
import { engineProsody } from '../apps/server/src/modules/tts/speech-pipeline';
import { DEFAULT_VOICE_SETTINGS } from '../apps/server/src/modules/voices/voices.service';
import { createLogger } from '../apps/server/src/platform/logger';
import { EnginePool } from '../apps/server/src/providers/engines/engine-pool';
import { MoonshineStt } from '../apps/server/src/providers/stt/moonshine-stt';
import { type EngineVoice, PREMADE_VOICES, type PremadeVoice } from '../packages/contracts/src/tts-catalog';
import { type Server, sleep, startParla } from './server';

const _root = path.resolve(import.meta.dirname, '..');

/** 200 characters, three sentences, nothing for the normaliser to rewrite. */
const TEXT =
  'The meeting has been moved to Thursday afternoon. Please bring the quarterly report and your laptop. The weather will be sunny with a light breeze from the west, so we can walk to the park after work.';
/** 841 characters in 12 sentences: a long synthesis, so the clients spend their time in the engines. */
const LONG_TEXT =
  'The meeting has been moved to Thursday afternoon. Please bring the quarterly report and your laptop. The weather will be sunny with a light breeze from the west, so we can walk to the park after work. We need to buy milk, bread and fresh eggs before the store closes. She finished reading the book and went to sleep early. The train to the city leaves every twenty minutes from the main station. Our neighbours painted their front door a bright shade of yellow last weekend. If the printer jams again, open the side panel and pull the paper out gently. The museum is closed on Mondays, but the garden stays open until sunset. He practised the piano for an hour before dinner and then called his sister. Remember to water the plants on the balcony while we are away. The children built a small boat out of cardboard and sailed it on the pond.';
/** The round-trip test's five sentences (speech-roundtrip.stress.test.ts), 57 words. */
const SENTENCES =
  "The meeting has been moved to Thursday afternoon at three o'clock. Please bring the quarterly report and your laptop. The weather will be sunny with a light breeze from the west. We need to buy milk, bread and fresh eggs before the store closes. She finished reading the book and went to sleep early.";

const TTFB_RUNS = 25;
const WARMUP_RUNS = 3;
const CLIENTS = 4;
const LOAD_SECONDS = 12;
const HEALTH_EVERY_MS = 50;
/** Idle time before each TTFB run, so nothing of the previous run (its history item, ffmpeg copies started ahead) still runs. */
const RUN_GAP_MS = 300;

const TARGET = { ttfbRatio: 1.5, ttfbMs: 150, rtf: 20, healthP99Ms: 20, werBest: 0.1, werFlite: 0.15 };

const premade = (name: string): PremadeVoice => {
  const voice = PREMADE_VOICES.find((v) => v.name === name);
  if (!voice) throw new Error(`no premade voice ${name}`);
  return voice;
};

interface Subject {
  label: string;
  voiceId: string;
  modelId: string;
  rendition: EngineVoice;
}

/** One voice per engine, each with the model that makes the server use that engine. */
const SUBJECTS: Subject[] = [
  {
    label: 'Festival (Sarah, parla_v1)',
    voiceId: premade('Sarah').voice_id,
    modelId: 'parla_v1',
    rendition: premade('Sarah').primary,
  },
  {
    label: 'Flite (Lily, parla_v1)',
    voiceId: premade('Lily').voice_id,
    modelId: 'parla_v1',
    rendition: premade('Lily').primary,
  },
  {
    label: 'eSpeak (Sarah, parla_multilingual_v1)',
    voiceId: premade('Sarah').voice_id,
    modelId: 'parla_multilingual_v1',
    rendition: premade('Sarah').espeak,
  },
];

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const ms = (value: number) => `${value.toFixed(1)} ms`;

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (at - low);
}

/** Seconds of audio in an MP3 stream: its frames counted (the Xing/Info header frame is no audio). */
function mp3Seconds(bytes: Buffer): number {
  let at = 0;
  if (bytes.subarray(0, 3).toString('latin1') === 'ID3') {
    const size = ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
    at = 10 + size;
  }
  const bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  const rates = [44100, 48000, 32000];
  let samples = 0;
  let sampleRate = 44100;
  while (at + 4 <= bytes.length) {
    const b1 = bytes[at + 1] ?? 0;
    const b2 = bytes[at + 2] ?? 0;
    // MPEG-1 Layer III only: what ffmpeg writes for mp3_44100_*.
    if (bytes[at] !== 0xff || (b1 & 0xfe) !== 0xfa) {
      at += 1;
      continue;
    }
    const bitrate = bitrates[b2 >> 4] ?? 0;
    sampleRate = rates[(b2 >> 2) & 3] ?? 44100;
    if (bitrate === 0) {
      at += 1;
      continue;
    }
    const length = Math.floor((144_000 * bitrate) / sampleRate) + ((b2 >> 1) & 1);
    const tag = bytes.subarray(at + 21, at + 25).toString('latin1');
    if (tag !== 'Xing' && tag !== 'Info') samples += 1152;
    at += length;
  }
  return samples / sampleRate;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

interface Answer {
  status: number;
  /** From sending the request to the first byte of the body. */
  firstByteMs: number;
  totalMs: number;
  body: Buffer;
}

/**
 * One HTTP request over a kept-alive connection, timed to the first body byte and to the end. A kept-alive
 * connection the server closed just as it was reused is tried once more on a new one (as Node advises).
 */
function request(
  url: string,
  options: { method?: string; apiKey?: string; body?: unknown } = {},
  retried = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const started = performance.now();
    const req = http.request(
      url,
      {
        agent,
        method: options.method ?? 'GET',
        headers: {
          ...(options.apiKey ? { 'xi-api-key': options.apiKey } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let firstByteMs = Number.NaN;
        res.on('data', (chunk: Buffer) => {
          if (chunks.length === 0) firstByteMs = performance.now() - started;
          chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            firstByteMs,
            totalMs: performance.now() - started,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === 'ECONNRESET' && !retried)
        request(url, options, true).then(resolve, reject);
      else reject(error);
    });
    req.end(payload);
  });
}

const speak = (server: Server, subject: Subject, text: string, pathSuffix = '', query = '') =>
  request(`${server.url}/v1/text-to-speech/${subject.voiceId}${pathSuffix}${query}`, {
    method: 'POST',
    apiKey: server.apiKey,
    body: { text, model_id: subject.modelId },
  });

function expectOk(answer: Answer, what: string): Answer {
  if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.body.toString()}`);
  return answer;
}

/** The request the server's pipeline makes to the engines for the text's first sentence. */
function firstSentenceRequest(subject: Subject) {
  const range = splitSentences(TEXT)[0] as { start: number; end: number };
  const settings = {
    speed: DEFAULT_VOICE_SETTINGS.speed,
    stability: DEFAULT_VOICE_SETTINGS.stability,
    style: DEFAULT_VOICE_SETTINGS.style,
    useSpeakerBoost: DEFAULT_VOICE_SETTINGS.use_speaker_boost,
  };
  return {
    engine: subject.rendition.engine,
    voice: subject.rendition.voice,
    text: TEXT.slice(range.start, range.end),
    ...engineProsody(subject.rendition, settings),
  };
}

interface TtfbRow {
  subject: Subject;
  engine: number[];
  ttfb: number[];
}

/** Runs alternate (engine alone, then the HTTP stream), so a noisy moment hits both sides alike. */
async function measureTtfb(server: Server, pool: EnginePool, subject: Subject): Promise<TtfbRow> {
  const engineRequest = firstSentenceRequest(subject);
  const row: TtfbRow = { subject, engine: [], ttfb: [] };
  for (let i = 0; i < WARMUP_RUNS + TTFB_RUNS; i++) {
    await sleep(RUN_GAP_MS);
    const started = performance.now();
    await pool.synthesize(engineRequest);
    const engineMs = performance.now() - started;
    await sleep(RUN_GAP_MS);
    // The whole stream is read before the next run, so no synthesis is left running behind it.
    const answer = expectOk(await speak(server, subject, TEXT, '/stream'), `${subject.label} /stream`);
    if (i < WARMUP_RUNS) continue;
    row.engine.push(engineMs);
    row.ttfb.push(answer.firstByteMs);
  }
  return row;
}

interface LoadRow {
  subject: Subject;
  audioSeconds: number;
  wallSeconds: number;
  requests: number;
  health: number[];
}

/**
 * The probe's own process: it sends `/health` every HEALTH_EVERY_MS (one at a time, on its own kept-alive
 * connection) until its stdin closes, then prints the latencies as JSON. A process of its own, so the
 * time this process spends reading the load clients' audio never counts as the server's.
 */
const PROBE_SCRIPT = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
let stop = false;
process.stdin.on('end', () => { stop = true; }).resume();
const once = () => new Promise((resolve, reject) => {
  const started = performance.now();
  http.get(process.argv[1] + '/health', { agent }, (res) => {
    res.resume();
    res.on('end', () => res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error('/health answered ' + res.statusCode)));
  }).on('error', reject);
});
(async () => {
  while (!stop) {
    const started = performance.now();
    latencies.push(await once());
    await new Promise((r) => setTimeout(r, Math.max(0, ${HEALTH_EVERY_MS} - (performance.now() - started))));
  }
  process.stdout.write(JSON.stringify(latencies));
  agent.destroy();
})().catch((error) => { console.error(error.message); process.exit(1); });
`;

/** Sequential `/health` probes every HEALTH_EVERY_MS, from a process of their own, until `until` resolves. */
async function probeHealth(server: Server, until: Promise<unknown>): Promise<number[]> {
  const probe = spawn(process.execPath, ['-e', PROBE_SCRIPT, server.url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const output: Buffer[] = [];
  probe.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  const exited = new Promise<number | null>((resolve) => probe.once('exit', resolve));
  try {
    await until;
  } finally {
    probe.stdin.end();
  }
  const code = await exited;
  if (code !== 0) throw new Error(`the /health probe failed (exit code ${code})`);
  return JSON.parse(Buffer.concat(output).toString()) as number[];
}

/** CLIENTS clients each sending the next request as soon as the last is answered, for LOAD_SECONDS. */
async function measureLoad(server: Server, subject: Subject, text = TEXT): Promise<LoadRow> {
  let audioSeconds = 0;
  let requests = 0;
  const started = performance.now();
  const deadline = started + LOAD_SECONDS * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const answer = expectOk(await speak(server, subject, text), `${subject.label} convert`);
      audioSeconds += mp3Seconds(answer.body);
      requests += 1;
    }
  };
  const clients = Promise.all(Array.from({ length: CLIENTS }, client));
  const health = probeHealth(server, clients);
  await clients;
  const wallSeconds = (performance.now() - started) / 1000;
  return { subject, audioSeconds, wallSeconds, requests, health: await health };
}

interface WerRow {
  name: string;
  engine: string;
  wer: number;
  limit: number | undefined;
}

/**
 * Each English premade voice on its own engine (parla_v1), and eSpeak for reference, heard by the embedded
 * speech to text (Moonshine tiny, in engine children of the bench process).
 */
async function measureWer(server: Server): Promise<WerRow[]> {
  const pool = new EnginePool({ size: 2, timeoutMs: 60_000, logger: createLogger({ level: 'silent' }) });
  await pool.start();
  const stt = new MoonshineStt(pool);
  try {
    return await werRows(server, stt);
  } finally {
    await pool.stop();
  }
}

async function werRows(server: Server, stt: MoonshineStt): Promise<WerRow[]> {
  const rows: WerRow[] = [];
  const english = PREMADE_VOICES.filter((v) => v.language === 'en' && v.primary.engine !== 'espeak');
  const subjects: (Subject & { name: string })[] = english.map((v) => ({
    name: v.name,
    label: v.name,
    voiceId: v.voice_id,
    modelId: 'parla_v1',
    rendition: v.primary,
  }));
  const sarah = premade('Sarah');
  subjects.push({
    name: 'Sarah (eSpeak)',
    label: 'Sarah (eSpeak)',
    voiceId: sarah.voice_id,
    modelId: 'parla_multilingual_v1',
    rendition: sarah.espeak,
  });
  for (const subject of subjects) {
    const answer = expectOk(
      await speak(server, subject, SENTENCES, '', '?output_format=pcm_16000'),
      `${subject.label} pcm`,
    );
    const samples = new Int16Array(answer.body.buffer, answer.body.byteOffset, answer.body.length >> 1);
    const wer = wordErrorRate(SENTENCES, await stt.transcribe({ sampleRate: 16_000, samples }));
    const { engine, voice } = subject.rendition;
    const limit =
      engine === 'festival' && voice === 'cmu_us_slt_arctic_hts'
        ? TARGET.werBest
        : engine === 'flite'
          ? TARGET.werFlite
          : undefined;
    rows.push({ name: subject.name, engine: `${engine} ${voice}`, wer, limit });
  }
  return rows;
}

export async function run(): Promise<void> {
  const server = await startParla();
  const pool = new EnginePool({ size: 1, timeoutMs: 30_000, logger: createLogger({ level: 'silent' }) });
  await pool.start();
  try {
    console.log(
      `text: ${TEXT.length} characters, ${splitSentences(TEXT).length} sentences; ${os.cpus().length} cores; the built server (as npm start runs it), ENGINE_POOL_SIZE default`,
    );
    console.log(
      `\n## Time to first audio byte: POST /v1/text-to-speech/{voice}/stream (mp3_44100_128), ${TTFB_RUNS} runs after ${WARMUP_RUNS} warm-up`,
    );
    console.log(
      'baseline: the engine alone on the first sentence, in an engine child (EnginePool.synthesize from the bench process, size 1)',
    );
    console.log(
      `${'voice'.padEnd(38)} ${'engine p50'.padStart(10)} ${'engine p90'.padStart(10)} ${'TTFB p50'.padStart(10)} ${'TTFB p90'.padStart(10)} ${'ratio'.padStart(6)}  target ratio ≤ ${TARGET.ttfbRatio}, p50 < ${TARGET.ttfbMs} ms`,
    );
    for (const subject of SUBJECTS) {
      const row = await measureTtfb(server, pool, subject);
      const engine50 = quantile(row.engine, 0.5);
      const ttfb50 = quantile(row.ttfb, 0.5);
      const ratio = ttfb50 / engine50;
      console.log(
        `${subject.label.padEnd(38)} ${ms(engine50).padStart(10)} ${ms(quantile(row.engine, 0.9)).padStart(10)} ${ms(ttfb50).padStart(10)} ${ms(quantile(row.ttfb, 0.9)).padStart(10)} ${ratio.toFixed(2).padStart(6)}  ratio ${verdict(ratio <= TARGET.ttfbRatio)}, p50 ${verdict(ttfb50 < TARGET.ttfbMs)}`,
      );
    }
    await pool.stop();

    const idle = await probeHealth(server, sleep(5000));
    console.log(
      `\n## Throughput: POST /v1/text-to-speech/{voice} (mp3_44100_128), ${CLIENTS} concurrent clients for ${LOAD_SECONDS} s; /health probed every ${HEALTH_EVERY_MS} ms meanwhile`,
    );
    console.log(
      `/health on the idle server: p50 ${ms(quantile(idle, 0.5))}, p99 ${ms(quantile(idle, 0.99))} (${idle.length} probes)`,
    );
    console.log(
      `${'voice'.padEnd(38)} ${'requests'.padStart(8)} ${'audio s'.padStart(8)} ${'wall s'.padStart(7)} ${'RTF'.padStart(6)}  ${'health p50'.padStart(10)} ${'p99'.padStart(8)} ${'p99/idle'.padStart(8)}  targets RTF ≥ ${TARGET.rtf}, health p99 < ${TARGET.healthP99Ms} ms`,
    );
    for (const subject of SUBJECTS) {
      const row = await measureLoad(server, subject);
      const rtf = row.audioSeconds / row.wallSeconds;
      const p99 = quantile(row.health, 0.99);
      console.log(
        `${subject.label.padEnd(38)} ${String(row.requests).padStart(8)} ${row.audioSeconds.toFixed(1).padStart(8)} ${row.wallSeconds.toFixed(1).padStart(7)} ${rtf.toFixed(1).padStart(6)}  ${ms(quantile(row.health, 0.5)).padStart(10)} ${ms(p99).padStart(8)} ${(p99 / quantile(idle, 0.99)).toFixed(2).padStart(8)}  RTF ${verdict(rtf >= TARGET.rtf)}, health ${verdict(p99 < TARGET.healthP99Ms)}`,
      );
    }

    console.log(
      `\n## Responsiveness while ${CLIENTS} long syntheses run: ${CLIENTS} clients sending a ${LONG_TEXT.length}-character text (12 sentences) to POST /v1/text-to-speech/{voice} for ${LOAD_SECONDS} s, /health probed every ${HEALTH_EVERY_MS} ms`,
    );
    console.log(
      `${'voice'.padEnd(38)} ${'requests'.padStart(8)} ${'RTF'.padStart(6)}  ${'health p50'.padStart(10)} ${'p99'.padStart(8)} ${'p99/idle'.padStart(8)}  target health p99 < ${TARGET.healthP99Ms} ms`,
    );
    for (const subject of SUBJECTS) {
      const row = await measureLoad(server, subject, LONG_TEXT);
      const p99 = quantile(row.health, 0.99);
      console.log(
        `${subject.label.padEnd(38)} ${String(row.requests).padStart(8)} ${(row.audioSeconds / row.wallSeconds).toFixed(1).padStart(6)}  ${ms(quantile(row.health, 0.5)).padStart(10)} ${ms(p99).padStart(8)} ${(p99 / quantile(idle, 0.99)).toFixed(2).padStart(8)}  health ${verdict(p99 < TARGET.healthP99Ms)}`,
      );
    }

    console.log(
      '\n## Round trip: five sentences (57 words) spoken through the API (pcm_16000), heard by the embedded speech to text',
    );
    console.log(`${'voice'.padEnd(16)} ${'engine'.padEnd(34)} ${'WER'.padStart(6)}  target`);
    for (const row of await measureWer(server)) {
      console.log(
        `${row.name.padEnd(16)} ${row.engine.padEnd(34)} ${`${(row.wer * 100).toFixed(1)}%`.padStart(6)}  ${
          row.limit === undefined
            ? '(no target)'
            : `≤ ${(row.limit * 100).toFixed(0)}% ${verdict(row.wer <= row.limit)}`
        }`,
      );
    }
  } finally {
    await pool.stop();
    agent.destroy();
    await server.stop();
  }
}
