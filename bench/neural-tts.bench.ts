/**
 * The neural voices in the engine children (issue 27 items 2–4, "Performance and quality"), with
 * Festival's HTS voice and Flite as the baseline in the same run. The children run the bundled child
 * entry (as a build does: under tsx each carries the compiler), started by an EnginePool in this process:
 * - real-time factor of one client (audio seconds over wall seconds, the five round-trip sentences in
 *   turn) and of four clients at once (their audio added up, over the wall time), per engine;
 * - time to first audio of a 12-word first sentence: the engine's synthesis of it, IPC included (a model
 *   that speaks a sentence at once has its first audio when the sentence is done), p50 of 7, and of its
 *   first clause (what a stream that cut the first sentence at its comma would wait for);
 * - resident memory of one engine child once it holds both neural models and has spoken a 150-character
 *   text with each, and its CPU seconds for one Kokoro sentence;
 * - word error rate of each neural voice, heard by the accurate embedded speech to text (Moonshine base).
 * "audio s per CPU s" is what the machine would give with its cores idle (the children's CPU time, read
 * from /proc): on a shared machine the wall-clock figures move with everyone else's load.
 * TTS_THREADS sets the model threads per child (default 1); the pool has one child per core (2).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeWav, wordErrorRate } from '@parla/audio';
import { createLogger } from '../apps/server/src/platform/logger';
import { useChildBundle } from '../apps/server/src/providers/engines/child-entry';
import { EnginePool } from '../apps/server/src/providers/engines/engine-pool';
import { MoonshineStt } from '../apps/server/src/providers/stt/moonshine-stt';
import { kokoroFiles, piperFiles } from '../apps/server/src/providers/tts/engines/neural-model-files';
import type { EngineSynthesisRequest } from '../apps/server/src/providers/tts/tts-provider';
import { descendants, rssMb } from './processes';

const root = path.resolve(import.meta.dirname, '..');

/** The round-trip test's five sentences (speech-roundtrip.stress.test.ts), 57 words. */
const SENTENCES = [
  "The meeting has been moved to Thursday afternoon at three o'clock.",
  'Please bring the quarterly report and your laptop.',
  'The weather will be sunny with a light breeze from the west.',
  'We need to buy milk, bread and fresh eggs before the store closes.',
  'She finished reading the book and went to sleep early.',
];
/** Twelve words, a comma after the fourth. */
const FIRST_SENTENCE = 'Good morning and welcome, this is your daily news summary for today.';
const FIRST_CLAUSE = 'Good morning and welcome,';
/** 150 characters, the most one engine call is given (MAX_ENGINE_TEXT). */
const LONGEST_PIECE =
  'The children built a small boat out of cardboard and sailed it on the pond, while their parents watched from a bench under the old oak tree by the gate.';
const FIRST_AUDIO_RUNS = 7;
const CLIENTS = 4;

const TARGET = {
  kokoroRtf: 3,
  kokoroRtf4: 2,
  kokoroFirstMs: 600,
  piperRtf: 10,
  piperFirstMs: 250,
  childMb: 450,
  wer: 0.03,
};

const VOICES: { name: string; voice: Omit<EngineSynthesisRequest, 'text'> }[] = [
  { name: 'Kokoro af_heart', voice: { engine: 'kokoro', voice: 'af_heart' } },
  { name: 'Piper joe', voice: { engine: 'piper', voice: 'en_US-joe-medium' } },
  { name: 'Festival slt-hts', voice: { engine: 'festival', voice: 'cmu_us_slt_arctic_hts' } },
  { name: 'Flite slt', voice: { engine: 'flite', voice: 'slt' } },
];

/** Linux's clock ticks per second (getconf CLK_TCK), the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS = 100;

/** The engine children of this process (their command line names the child entry). */
function engineChildren(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('engine-child.js');
    } catch {
      return false;
    }
  });
}

/**
 * CPU seconds a process has spent (user and system), with its children that ended (the flite runs of a
 * program host), from /proc.
 */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const times = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 15)
      .map(Number);
    return times.reduce((sum, t) => sum + (t || 0), 0) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

const seconds = (r: { samples: Int16Array; sampleRate: number }) => r.samples.length / r.sampleRate;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** One client: the five sentences in turn. Audio seconds and wall seconds. */
async function speakAll(pool: EnginePool, voice: Omit<EngineSynthesisRequest, 'text'>) {
  let audio = 0;
  const started = performance.now();
  for (const text of SENTENCES) audio += seconds(await pool.synthesize({ ...voice, text }));
  return { audio, wall: (performance.now() - started) / 1000 };
}

async function firstAudioMs(pool: EnginePool, voice: Omit<EngineSynthesisRequest, 'text'>, text: string) {
  const times: number[] = [];
  for (let i = 0; i < FIRST_AUDIO_RUNS; i += 1) {
    const started = performance.now();
    await pool.synthesize({ ...voice, text });
    times.push(performance.now() - started);
  }
  return median(times);
}

export async function run(): Promise<void> {
  const kokoro = kokoroFiles();
  const piper = piperFiles('en_US-joe-medium');
  if (!fs.existsSync(kokoro.model) || !piper || !fs.existsSync(piper.model)) {
    console.log(`SKIP: the neural models are not in ${path.dirname(path.dirname(kokoro.model))}.`);
    return;
  }
  // Inside the server's folder, so the bundle's imports resolve from its node_modules as a build's do.
  fs.mkdirSync(path.join(root, 'apps/server/.tmp'), { recursive: true });
  const bundleDir = fs.mkdtempSync(path.join(root, 'apps/server/.tmp/neural-bench-'));
  execFileSync(
    process.execPath,
    [path.join(root, 'scripts/build-server.mjs'), '--engine-child-only', bundleDir],
    {
      stdio: 'ignore',
    },
  );
  useChildBundle(path.join(bundleDir, 'engine-child.js'));
  const logger = createLogger({ level: 'silent' });
  console.log(
    `model threads per child: ${process.env.TTS_THREADS ?? 1}; load average ${os.loadavg()[0]?.toFixed(1)}`,
  );

  // Memory: one child, both models loaded, the longest piece spoken by each.
  const one = new EnginePool({ size: 1, timeoutMs: 120_000, logger });
  await one.start();
  try {
    const child = engineChildren()[0] ?? 0;
    const idle = rssMb(child);
    await one.synthesize({ engine: 'espeak', voice: 'en-us', text: 'Hello.' }, { timeoutMs: 120_000 });
    const espeak = rssMb(child);
    for (let i = 0; i < 3; i += 1)
      await one.synthesize(
        { engine: 'kokoro', voice: 'af_heart', text: LONGEST_PIECE },
        { timeoutMs: 120_000 },
      );
    const withKokoro = rssMb(child);
    for (let i = 0; i < 3; i += 1)
      await one.synthesize(
        { engine: 'piper', voice: 'en_US-joe-medium', text: LONGEST_PIECE },
        { timeoutMs: 120_000 },
      );
    const both = rssMb(child);
    const before = cpuSeconds(child);
    const sentence = await one.synthesize({
      engine: 'kokoro',
      voice: 'af_heart',
      text: SENTENCES[0] as string,
    });
    const kokoroCpu = cpuSeconds(child) - before;
    console.log(
      `engine child RSS: ${idle.toFixed(0)} MB started, ${espeak.toFixed(0)} MB with eSpeak, ${withKokoro.toFixed(0)} MB with Kokoro, ${both.toFixed(0)} MB with Kokoro and Piper (target ≤ ${TARGET.childMb}) ${pass(both <= TARGET.childMb)}`,
    );
    console.log(
      `Kokoro CPU for one ${seconds(sentence).toFixed(2)} s sentence: ${kokoroCpu.toFixed(2)} s (${(seconds(sentence) / kokoroCpu).toFixed(2)}× real time per core)`,
    );
  } finally {
    await one.stop();
  }

  const pool = new EnginePool({ size: 2, timeoutMs: 120_000, logger });
  await pool.start();
  try {
    // Warm: every child loads every engine once (a first call loads its model: on a loaded machine that
    // alone can pass the product's time bound for a short text).
    for (const { voice } of VOICES)
      await Promise.all(
        [0, 1].map(() => pool.synthesize({ ...voice, text: 'Hello there.' }, { timeoutMs: 120_000 })),
      );
    const rows: string[] = [];
    const figures = new Map<string, { rtf: number; rtf4: number; first: number; clause: number }>();
    // The engine children and what they started (their program hosts, which run Festival and Flite).
    const children = engineChildren().flatMap((pid) => [pid, ...descendants(pid)]);
    const poolCpu = () => children.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    for (const { name, voice } of VOICES) {
      const cpuBefore = poolCpu();
      const single = await speakAll(pool, voice);
      const cpu = poolCpu() - cpuBefore;
      const started = performance.now();
      const all = await Promise.all(Array.from({ length: CLIENTS }, () => speakAll(pool, voice)));
      const wall4 = (performance.now() - started) / 1000;
      const rtf4 = all.reduce((sum, r) => sum + r.audio, 0) / wall4;
      const first = await firstAudioMs(pool, voice, FIRST_SENTENCE);
      const clause = await firstAudioMs(pool, voice, FIRST_CLAUSE);
      figures.set(name, { rtf: single.audio / single.wall, rtf4, first, clause });
      rows.push(
        `| ${name} | ${(single.audio / single.wall).toFixed(1)}× | ${(single.audio / cpu).toFixed(1)}× | ${rtf4.toFixed(1)}× | ${first.toFixed(0)} ms | ${clause.toFixed(0)} ms |`,
      );
    }
    console.log(
      '\n| voice | RTF 1 client | audio s per CPU s (1 client) | RTF 4 clients (sum) | first audio, 12 words (p50) | first clause (p50) |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const row of rows) console.log(row);
    const k = figures.get('Kokoro af_heart');
    const p = figures.get('Piper joe');
    const f = figures.get('Flite slt');
    if (k && p && f) {
      console.log(
        `\nKokoro RTF ${k.rtf.toFixed(1)}× (target ≥ ${TARGET.kokoroRtf}) ${pass(k.rtf >= TARGET.kokoroRtf)}; four clients ${k.rtf4.toFixed(1)}× (≥ ${TARGET.kokoroRtf4}) ${pass(k.rtf4 >= TARGET.kokoroRtf4)}`,
      );
      console.log(
        `Kokoro first audio ${k.first.toFixed(0)} ms (≤ ${TARGET.kokoroFirstMs}) ${pass(k.first <= TARGET.kokoroFirstMs)}, ${(k.first / f.first).toFixed(1)}× Flite's`,
      );
      console.log(
        `Piper RTF ${p.rtf.toFixed(1)}× (≥ ${TARGET.piperRtf}) ${pass(p.rtf >= TARGET.piperRtf)}; first audio ${p.first.toFixed(0)} ms (≤ ${TARGET.piperFirstMs}) ${pass(p.first <= TARGET.piperFirstMs)}, ${(p.first / f.first).toFixed(1)}× Flite's`,
      );
    }

    const stt = new MoonshineStt(pool);
    for (const { name, voice } of VOICES.slice(0, 2)) {
      let heard = '';
      for (const text of SENTENCES) {
        const speech = await pool.synthesize({ ...voice, text });
        const file = path.join(bundleDir, 'heard.wav');
        fs.writeFileSync(file, encodeWav({ ...speech, channels: 1 }));
        const transcript = await stt.transcribeFile({
          file,
          model: 'accurate',
          timestamps: 'none',
          tenant: 'bench',
        });
        heard += ` ${transcript.segments.map((segment) => segment.text).join(' ')}`;
      }
      const wer = wordErrorRate(SENTENCES.join(' '), heard);
      console.log(
        `WER ${name} (Moonshine base): ${(wer * 100).toFixed(1)}% (≤ ${TARGET.wer * 100}%) ${pass(wer <= TARGET.wer)}`,
      );
    }
  } finally {
    await pool.stop();
    fs.rmSync(bundleDir, { recursive: true, force: true });
  }
}
