/**
 * The neural voices in the engine children (issue 27 items 2–4, "Performance and quality"), with
 * Festival's HTS voice and Flite as the baseline in the same run. The children run the bundled child
 * entry (as a build does: under tsx each carries the compiler), started by an EnginePool in this process:
 * - real-time factor of one client (audio seconds over wall seconds, the five round-trip sentences in
 *   turn) and of four clients at once (their audio added up, over the wall time), per engine;
 * - time to first audio of a 12-word first sentence: the engine's synthesis of it, IPC included (a model
 *   that speaks a sentence at once has its first audio when the sentence is done), p50 of 7, whole and
 *   cut at firstPieceLength (first-piece.ts: what a stream that speaks its first piece first waits for),
 *   for a sentence with a comma after its 4th word and one without; and whether the rest is made before
 *   the first piece has played (else the listener hears a gap);
 * - 8 streams at once on the fastest engine (Flite) and on Piper: p95 of their first audio over 5 rounds
 *   against the single-stream median (target ≤ 3×);
 * - resident memory (RSS, and PSS: shared pages split between the processes that map them) of one
 *   engine child warmed up (both neural models loaded at start, neural-warm-up.ts, with each model's load
 *   time), then after a mix of short, 150-character and 300–400-character texts through each model, three
 *   rounds (steady state), and its CPU seconds for one Kokoro sentence;
 * - word error rate of each neural voice, heard by the accurate embedded speech to text (Moonshine base).
 * "audio s per CPU s" is what the machine would give with its cores idle (the children's CPU time, read
 * from /proc): on a shared machine the wall-clock figures move with everyone else's load.
 * TTS_THREADS sets the model threads per child (default 1); the pool has one child per core (2).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeWav, normalizeEnglish, wordErrorRate } from '@parla/audio';
import { firstPieceLength } from '../apps/server/src/modules/tts/first-piece';
import { createLogger } from '../apps/server/src/platform/logger';
import { KOKORO_VOICE_NAMES } from '../apps/server/src/platform/models/model-catalogue';
import { useChildBundle } from '../apps/server/src/providers/engines/child-entry';
import { EnginePool } from '../apps/server/src/providers/engines/engine-pool';
import { MoonshineStt } from '../apps/server/src/providers/stt/moonshine-stt';
import { kokoroFiles, piperFiles } from '../apps/server/src/providers/tts/engines/neural-model-files';
import type { ModelWarmUp } from '../apps/server/src/providers/tts/engines/neural-warm-up';
import type { EngineSynthesisRequest } from '../apps/server/src/providers/tts/tts-provider';
import { PREMADE_VOICES } from '../packages/contracts/src/tts-catalog';
import { descendants, rssMb } from './processes';
import { startParla } from './server';

const root = path.resolve(import.meta.dirname, '..');

/** The round-trip test's five sentences (speech-roundtrip.stress.test.ts), 57 words. */
const SENTENCES = [
  "The meeting has been moved to Thursday afternoon at three o'clock.",
  'Please bring the quarterly report and your laptop.',
  'The weather will be sunny with a light breeze from the west.',
  'We need to buy milk, bread and fresh eggs before the store closes.',
  'She finished reading the book and went to sleep early.',
];
/** Twelve words, a comma after the fourth; and twelve words with no comma. */
const FIRST_SENTENCE = 'Good morning and welcome, this is your daily news summary for today.';
const FIRST_SENTENCE_PLAIN = 'The quarterly report shows strong growth in every region this year again.';
/** The memory mix: short sentences, 150-character pieces (the most the pipeline sends) and longer texts. */
const LONG_TEXT =
  'The children built a small boat out of cardboard and sailed it on the pond, while their parents watched from a bench under the old oak tree by the gate. Later that evening, everyone gathered in the kitchen to share stories about the day, and the smallest boy fell asleep at the table before dessert. Nobody minded at all.';
const STREAMS = 8;
const STREAM_ROUNDS = 5;
/** 150 characters, the most one engine call is given (MAX_ENGINE_TEXT). */
const LONGEST_PIECE =
  'The children built a small boat out of cardboard and sailed it on the pond, while their parents watched from a bench under the old oak tree by the gate.';
const FIRST_AUDIO_RUNS = 7;
/**
 * The round trip's twenty harder sentences (issue 27: numbers, dates, abbreviations, names), read as the
 * server reads them: through the English normaliser first (normalizeEnglish), which the reference is too.
 */
const HARD_SENTENCES = [
  'The invoice of $1,249.50 is due on March 3rd, 2025.',
  'Dr. Patel will see you at 4:45 pm on Friday.',
  'Flight BA 117 leaves from gate 22 at 7:05 in the morning.',
  'The population grew by 12% between 1990 and 2010.',
  'Mr. and Mrs. Okafor moved to 221 Baker Street last June.',
  'Call the support line at 555-0199 before 6 pm.',
  'Our team scored 3 goals in the last 15 minutes.',
  'The package weighs 2.5 kg and measures 40 cm across.',
  'Professor Nakamura published her third book in 2019.',
  'Siobhan and Joaquin met at a conference in Reykjavik.',
  'The meeting on Oct. 14 was moved to the 21st.',
  'NASA launched the probe on July 16, 1969.',
  'The recipe needs 250 grams of flour and 3 eggs.',
  'Version 2.3 fixes 47 bugs reported since January.',
  'St. Petersburg is about 700 km from Moscow.',
  'The temperature dropped to minus 12 degrees overnight.',
  'Please send the report to Ms. Fitzgerald by noon.',
  'The 1st prize is a trip for 2 to Lisbon.',
  'Aisha ran the 10 km race in 48 minutes.',
  'The company hired 1,500 people in the 4th quarter.',
];
const CLIENTS = 4;

const TARGET = {
  kokoroRtf: 3,
  kokoroRtf4: 2,
  kokoroFirstMs: 600,
  piperRtf: 10,
  piperFirstMs: 250,
  childMb: 450,
  streamsRatio: 3,
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
const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)] ?? Number.NaN;

/** Proportional set size in MB (shared pages split between the processes mapping them), 0 once gone. */
function pssMb(pid: number): number {
  try {
    const kb = /Pss:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** A logger that keeps the pool's warm-up reports (each child's models and their load times). */
function warmUpLog() {
  const reports: ModelWarmUp[][] = [];
  const logger = createLogger({ level: 'info' });
  const kept = new Proxy(logger, {
    get(target, key, receiver) {
      if (key === 'info')
        return (object: { models?: ModelWarmUp[] }, message?: string) => {
          if (message === 'engine process warmed up' && object.models) reports.push(object.models);
        };
      if (key === 'warn') return (object: unknown, message?: string) => console.log(message, object);
      if (key === 'child') return () => kept;
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? () => undefined : value;
    },
  });
  return { logger: kept, reports };
}

const describeWarmUp = (models: ModelWarmUp[] | undefined) =>
  (models ?? [])
    .map((m) =>
      m.loadMs !== undefined
        ? `${m.model} load ${m.loadMs} ms + first synthesis ${m.firstSynthesisMs} ms`
        : `${m.model} ${m.skipped ?? m.error}`,
    )
    .join('; ');

/** Time to first audio of `streams` streams starting at once, each on its first sentence: every sample. */
async function concurrentFirstAudio(
  pool: EnginePool,
  voice: Omit<EngineSynthesisRequest, 'text'>,
  streams: number,
  rounds: number,
) {
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: streams }, (_, i) =>
        pool
          .synthesize({ ...voice, text: FIRST_SENTENCE }, { tenant: `stream-${i}` })
          .then(() => times.push(performance.now() - started)),
      ),
    );
  }
  return times;
}
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

/** `npm run bench -- neural-tts [memory] [speed] [streams] [wer] [http]`: the parts named, or all of them. */
const parts = process.argv.slice(3);
const want = (part: string) => parts.length === 0 || parts.includes(part);

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
  console.log(
    `model threads per child: ${process.env.TTS_THREADS ?? 1}; load average ${os.loadavg()[0]?.toFixed(1)}`,
  );

  if (want('memory')) {
    // Memory: one child, warmed up (both models loaded at its start), then the mix through each model.
    const oneLog = warmUpLog();
    const one = new EnginePool({ size: 1, timeoutMs: 120_000, logger: oneLog.logger, warmUp: true });
    await one.start();
    try {
      const child = engineChildren()[0] ?? 0;
      const started = performance.now();
      while (oneLog.reports.length === 0 && performance.now() - started < 180_000)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const warm = rssMb(child);
      console.log(`warm-up of one child: ${describeWarmUp(oneLog.reports[0])}`);
      const mix = [
        ...SENTENCES.slice(0, 2),
        LONGEST_PIECE,
        'Hello there.',
        LONG_TEXT,
        FIRST_SENTENCE,
        LONGEST_PIECE.slice(0, 90),
      ];
      const after: string[] = [];
      for (let round = 0; round < 3; round += 1) {
        for (const engine of [
          { engine: 'kokoro', voice: 'af_heart' },
          { engine: 'piper', voice: 'en_US-joe-medium' },
        ] as const)
          for (const text of mix) await one.synthesize({ ...engine, text }, { timeoutMs: 120_000 });
        after.push(`${rssMb(child).toFixed(0)}`);
      }
      const steady = rssMb(child);
      const before = cpuSeconds(child);
      const sentence = await one.synthesize({
        engine: 'kokoro',
        voice: 'af_heart',
        text: SENTENCES[0] as string,
      });
      const kokoroCpu = cpuSeconds(child) - before;
      console.log(
        `engine child RSS: ${warm.toFixed(0)} MB warmed up (Kokoro and Piper loaded), ${after.join(' → ')} MB after each round of the mix (PSS ${pssMb(child).toFixed(0)} MB) (target ≤ ${TARGET.childMb}) ${pass(steady <= TARGET.childMb)}`,
      );
      console.log(
        `Kokoro CPU for one ${seconds(sentence).toFixed(2)} s sentence: ${kokoroCpu.toFixed(2)} s (${(seconds(sentence) / kokoroCpu).toFixed(2)}× real time per core)`,
      );
    } finally {
      await one.stop();
    }
  }

  const poolLog = warmUpLog();
  const pool = new EnginePool({ size: 2, timeoutMs: 120_000, logger: poolLog.logger, warmUp: true });
  await pool.start();
  try {
    // Warm: each child loads the neural models at its start (the server's pool does the same); Festival
    // and Flite start on a first call, made here once per child.
    for (const { voice } of VOICES.slice(2))
      await Promise.all(
        [0, 1].map(() => pool.synthesize({ ...voice, text: 'Hello there.' }, { timeoutMs: 120_000 })),
      );
    for (const [i, models] of poolLog.reports.entries())
      console.log(`warm-up of pool child ${i + 1}: ${describeWarmUp(models)}`);
    if (want('speed')) {
      const rows: string[] = [];
      const figures = new Map<string, { rtf: number; rtf4: number; first: number; piece: number }>();
      const pieces: string[] = [];
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
        const cut = firstPieceLength(FIRST_SENTENCE);
        const piece = await firstAudioMs(pool, voice, FIRST_SENTENCE.slice(0, cut));
        const plain = await firstAudioMs(pool, voice, FIRST_SENTENCE_PLAIN);
        const plainCut = firstPieceLength(FIRST_SENTENCE_PLAIN);
        const plainPiece = await firstAudioMs(pool, voice, FIRST_SENTENCE_PLAIN.slice(0, plainCut));
        // The rest is made while the first piece plays: a gap when it takes longer than that piece lasts.
        const gaps: number[] = [];
        for (const [sentence, at] of [
          [FIRST_SENTENCE, cut],
          [FIRST_SENTENCE_PLAIN, plainCut],
        ] as const) {
          const head = await pool.synthesize({ ...voice, text: sentence.slice(0, at) });
          const started = performance.now();
          await pool.synthesize({ ...voice, text: sentence.slice(at).trim() });
          gaps.push(Math.max(0, performance.now() - started - seconds(head) * 1000));
        }
        figures.set(name, { rtf: single.audio / single.wall, rtf4, first, piece });
        rows.push(
          `| ${name} | ${(single.audio / single.wall).toFixed(1)}× | ${(single.audio / cpu).toFixed(1)}× | ${rtf4.toFixed(1)}× | ${first.toFixed(0)} ms | ${piece.toFixed(0)} ms |`,
        );
        pieces.push(
          `| ${name} | ${first.toFixed(0)} → ${piece.toFixed(0)} ms | ${plain.toFixed(0)} → ${plainPiece.toFixed(0)} ms | ${gaps.map((g) => g.toFixed(0)).join(' / ')} ms |`,
        );
      }
      console.log(
        '\n| voice | RTF 1 client | audio s per CPU s (1 client) | RTF 4 clients (sum) | first audio, 12 words (p50) | its first piece (p50) |',
      );
      console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
      for (const row of rows) console.log(row);
      console.log(
        `\nFirst audio of a 12-word first sentence, whole → its first piece (firstPieceLength: "${FIRST_SENTENCE.slice(0, firstPieceLength(FIRST_SENTENCE))}" | "${FIRST_SENTENCE_PLAIN.slice(0, firstPieceLength(FIRST_SENTENCE_PLAIN))}"), p50 of ${FIRST_AUDIO_RUNS}; gap: how much longer the rest took to make than the first piece plays (0 = none heard)`,
      );
      console.log('| voice | with a comma | without | gap (comma / without) |');
      console.log('| --- | ---: | ---: | ---: |');
      for (const row of pieces) console.log(row);
      const k = figures.get('Kokoro af_heart');
      const p = figures.get('Piper joe');
      const f = figures.get('Flite slt');
      if (k && p && f) {
        console.log(
          `\nKokoro RTF ${k.rtf.toFixed(1)}× (target ≥ ${TARGET.kokoroRtf}) ${pass(k.rtf >= TARGET.kokoroRtf)}; four clients ${k.rtf4.toFixed(1)}× (≥ ${TARGET.kokoroRtf4}) ${pass(k.rtf4 >= TARGET.kokoroRtf4)}`,
        );
        console.log(
          `Kokoro first audio ${k.first.toFixed(0)} ms whole (≤ ${TARGET.kokoroFirstMs}) ${pass(k.first <= TARGET.kokoroFirstMs)}; ${k.piece.toFixed(0)} ms from its first piece ${pass(k.piece <= TARGET.kokoroFirstMs)}, ${(k.piece / f.piece).toFixed(1)}× Flite's`,
        );
        console.log(
          `Piper RTF ${p.rtf.toFixed(1)}× (≥ ${TARGET.piperRtf}) ${pass(p.rtf >= TARGET.piperRtf)}; first audio ${p.first.toFixed(0)} ms (≤ ${TARGET.piperFirstMs}) ${pass(p.first <= TARGET.piperFirstMs)}, ${(p.first / f.first).toFixed(1)}× Flite's`,
        );
      }
    }
    if (want('streams')) {
      console.log(
        `\n${STREAMS} streams at once (pool of 2), first audio of a 12-word first sentence, ${STREAM_ROUNDS} rounds:`,
      );
      for (const { name, voice } of [VOICES[3], VOICES[1]] as (typeof VOICES)[number][]) {
        const single = await firstAudioMs(pool, voice, FIRST_SENTENCE);
        const times = await concurrentFirstAudio(pool, voice, STREAMS, STREAM_ROUNDS);
        const ratio = p95(times) / single;
        console.log(
          `${name}: single-stream median ${single.toFixed(0)} ms; ${STREAMS} streams median ${median(times).toFixed(0)} ms, p95 ${p95(times).toFixed(0)} ms = ${ratio.toFixed(1)}× (target ≤ ${TARGET.streamsRatio}×) ${pass(ratio <= TARGET.streamsRatio)}`,
        );
      }
    }

    // The two children after all the above (both models, every engine, four clients at once).
    const poolChildren = engineChildren();
    console.log(
      `\npool children now: RSS ${poolChildren.map((pid) => rssMb(pid).toFixed(0)).join(' + ')} MB, PSS ${poolChildren.map((pid) => pssMb(pid).toFixed(0)).join(' + ')} MB (server + two children ≤ 1600 MB busy: the server's own share is not in this bench)`,
    );

    if (want('wer')) {
      // Every English neural voice (BENCH_WER_VOICES=all; by default one of each accent and gender) and
      // the classic baseline, each on the 25 sentences, heard by Moonshine base. The reference and what
      // was heard are both normalised (numbers to words), so "3" and "three" are the same word.
      const stt = new MoonshineStt(pool);
      const english = KOKORO_VOICE_NAMES.filter((name) => /^[ab][fm]_/.test(name));
      const kokoroVoices =
        process.env.BENCH_WER_VOICES === 'all'
          ? english
          : ['af_heart', 'am_michael', 'bf_emma', 'bm_george'].filter((name) => english.includes(name));
      const subjects = [
        ...kokoroVoices.map((voice) => ({
          name: `Kokoro ${voice}`,
          voice: { engine: 'kokoro', voice } as const,
        })),
        ...VOICES.slice(1),
      ];
      const sentences = [...SENTENCES, ...HARD_SENTENCES].map((text) => normalizeEnglish(text).text);
      console.log(
        `\nWER on ${SENTENCES.length} + ${HARD_SENTENCES.length} sentences (normalised), heard by Moonshine base; ${kokoroVoices.length} of ${english.length} English Kokoro voices (BENCH_WER_VOICES=all for every one)`,
      );
      const file = path.join(bundleDir, 'heard.wav');
      for (const { name, voice } of subjects) {
        let heardEasy = '';
        let heardHard = '';
        for (const [index, text] of sentences.entries()) {
          const speech = await pool.synthesize({ ...voice, text }, { timeoutMs: 120_000 });
          fs.writeFileSync(file, encodeWav({ ...speech, channels: 1 }));
          const transcript = await stt.transcribeFile({
            file,
            model: 'accurate',
            timestamps: 'none',
            tenant: 'bench',
          });
          const heard = normalizeEnglish(transcript.segments.map((segment) => segment.text).join(' ')).text;
          if (index < SENTENCES.length) heardEasy += ` ${heard}`;
          else heardHard += ` ${heard}`;
        }
        const easy = wordErrorRate(sentences.slice(0, SENTENCES.length).join(' '), heardEasy);
        const hard = wordErrorRate(sentences.slice(SENTENCES.length).join(' '), heardHard);
        const all = wordErrorRate(sentences.join(' '), `${heardEasy} ${heardHard}`);
        console.log(
          `WER ${name.padEnd(20)} five ${(easy * 100).toFixed(1).padStart(5)}%, harder ${(hard * 100).toFixed(1).padStart(5)}%, all ${(all * 100).toFixed(1).padStart(5)}% (≤ ${TARGET.wer * 100}%) ${pass(all <= TARGET.wer)}`,
        );
      }
    }
  } finally {
    await pool.stop();
    fs.rmSync(bundleDir, { recursive: true, force: true });
  }
  if (want('http')) await httpFirstAudio();
}

/**
 * Time to first audio over HTTP streaming (`POST /v1/text-to-speech/{voice}/stream`, mp3_44100_128), the
 * built server as `npm start` runs it: the 12-word first sentence and one more, p50 of FIRST_AUDIO_RUNS
 * after two warm-ups, Flite (parla_v1) as the baseline in the same run. The server cuts a Kokoro
 * stream's first sentence after its first phrase (speech-pipeline.ts streamPlan).
 */
async function httpFirstAudio(): Promise<void> {
  const server = await startParla();
  try {
    const subjects = [
      { name: 'Flite (Lily, parla_v1)', voice: 'Lily', model: 'parla_v1', target: Number.NaN },
      {
        name: 'Kokoro (Sarah, parla_neural_v1)',
        voice: 'Sarah',
        model: 'parla_neural_v1',
        target: TARGET.kokoroFirstMs,
      },
      {
        name: 'Piper (Adam, parla_neural_fast_v1)',
        voice: 'Adam',
        model: 'parla_neural_fast_v1',
        target: TARGET.piperFirstMs,
      },
    ];
    console.log(
      `\nFirst audio over HTTP streaming (mp3_44100_128), "${FIRST_SENTENCE}" and one more sentence, p50 of ${FIRST_AUDIO_RUNS}; load average ${os.loadavg()[0]?.toFixed(1)}`,
    );
    let baseline = Number.NaN;
    for (const subject of subjects) {
      const voiceId = PREMADE_VOICES.find((v) => v.name === subject.voice)?.voice_id;
      const times: number[] = [];
      for (let run = 0; run < FIRST_AUDIO_RUNS + 2; run += 1) {
        const started = performance.now();
        const response = await fetch(`${server.url}/v1/text-to-speech/${voiceId}/stream`, {
          method: 'POST',
          headers: { 'xi-api-key': server.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ text: `${FIRST_SENTENCE} ${SENTENCES[1]}`, model_id: subject.model }),
        });
        if (!response.ok || !response.body) throw new Error(`${subject.name}: HTTP ${response.status}`);
        const reader = response.body.getReader();
        const first = await reader.read();
        const firstMs = performance.now() - started;
        while (!(await reader.read()).done);
        if (first.done) throw new Error(`${subject.name}: no audio`);
        if (run >= 2) times.push(firstMs);
      }
      const p50 = median(times);
      if (Number.isNaN(baseline)) baseline = p50;
      const verdict = Number.isNaN(subject.target)
        ? '(baseline)'
        : `(target ≤ ${subject.target} ms) ${pass(p50 <= subject.target)}`;
      console.log(
        `${subject.name.padEnd(36)} p50 ${p50.toFixed(0).padStart(5)} ms, ${(p50 / baseline).toFixed(2)}× the baseline ${verdict}`,
      );
    }
    // Busy: four Kokoro and two Piper requests at once, the server's tree sampled meanwhile.
    const tree = () => [server.pid, ...descendants(server.pid)].reduce((sum, pid) => sum + rssMb(pid), 0);
    let peak = tree();
    const sampler = setInterval(() => {
      peak = Math.max(peak, tree());
    }, 200);
    const speakNow = (voice: string, model: string) =>
      fetch(`${server.url}/v1/text-to-speech/${PREMADE_VOICES.find((v) => v.name === voice)?.voice_id}`, {
        method: 'POST',
        headers: { 'xi-api-key': server.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `${LONG_TEXT}`, model_id: model }),
      }).then((response) => response.arrayBuffer());
    for (let round = 0; round < 2; round += 1)
      await Promise.all([
        ...['Sarah', 'Lily', 'Oliver', 'Charlotte'].map((voice) => speakNow(voice, 'parla_neural_v1')),
        speakNow('Adam', 'parla_neural_fast_v1'),
        speakNow('Eric', 'parla_neural_fast_v1'),
      ]);
    clearInterval(sampler);
    console.log(
      `server and its processes busy (4 Kokoro + 2 Piper requests of ${LONG_TEXT.length} characters, twice): peak RSS ${peak.toFixed(0)} MB (target ≤ 1600) ${pass(peak <= 1600)}; processes: ${[server.pid, ...descendants(server.pid)].map((pid) => rssMb(pid).toFixed(0)).join(' + ')} MB`,
    );
  } finally {
    await server.stop();
  }
}
