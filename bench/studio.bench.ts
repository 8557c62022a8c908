/**
 * Studio's audiobook conversion (issue 30 "Performance"): a 100,000-character book converted end to end
 * at ≥ 15× real time on 2 cores with the Studio default voice, memory bounded, and a reconversion after
 * editing one paragraph that speaks only that paragraph.
 *
 * Through the real Studio API: the server's HTTP app with its Studio module and conversion job (the test
 * app of apps/server/src/test: Fastify listening on 127.0.0.1, PGlite, local storage, a job worker, and an
 * engine pool of two children — one per core, as the server runs them). Not the built server of
 * bench/server.ts: that one makes every premade voice's preview at start (up to ten minutes of neural
 * synthesis on 2 cores), which would have to finish before the measurement.
 *
 * - The book: a generated text (bookText below: seeded, varied sentences, paragraphs and six chapters of
 *   unequal length), ~100,000 characters, sent as `from_content_json` (a heading block and its paragraphs
 *   per chapter, each in the project's default voice).
 * - The default voice and model: what a project gets when it names none (Onyx on `parla_neural_fast_v1`,
 *   Piper en_US-joe-medium; decision 25 "Studio projects": Kokoro cannot reach 15× on 2 cores), with
 *   `acx_volume_normalization` on (each chapter mastered: room tone, gain, limiter, ACX report).
 * - End to end: POST …/convert, polled until the project is back to `default`, then GET …/export?format=m4b
 *   read to the end. Wall time from the convert call to the m4b's last byte; ×real time = the book's audio
 *   seconds (the project snapshot's duration, room tone included) over that.
 * - Memory: this process's peak RSS (VmHWM; it is the server here) and its growth during the conversion,
 *   and each engine child's RSS.
 * - Reconversion: one paragraph edited (POST …/chapters/{id} with the same block ids), the project
 *   converted again: the engine calls are counted (each a sentence) and the blocks spoken (new block audio
 *   files in storage): exactly the edited paragraph.
 * - Baseline in the same run: Kokoro's default voice (af_heart, `parla_neural_v1`) speaking the book's
 *   shortest chapter through the same pool: its ×real time.
 *
 * `npm run bench -- studio`. BOOK_CHARS sets the book's length (default 100,000).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { normalizeEnglish, seededRandom, splitSentences } from '@parla/audio';
import { eq } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import type { AppDeps } from '../apps/server/src/app-deps';
import { loadConfig } from '../apps/server/src/config';
import { createEventBus } from '../apps/server/src/event-handlers';
import { SHAREABLE_KINDS, seedModules, WORKSPACE_FIELDS, workerJobs } from '../apps/server/src/modules';
import { createAuthGuard } from '../apps/server/src/modules/auth';
import { outboxKeeper } from '../apps/server/src/modules/mail';
import { startGenerationLeases } from '../apps/server/src/modules/metering';
import { workspaces } from '../apps/server/src/modules/workspaces/workspaces.tables';
import { systemClock } from '../apps/server/src/platform/clock';
import { openDatabase } from '../apps/server/src/platform/db/client';
import { JobQueue } from '../apps/server/src/platform/jobs/job-queue';
import { JobWorker } from '../apps/server/src/platform/jobs/job-worker';
import { createLogger } from '../apps/server/src/platform/logger';
import { WavFileWriter } from '../apps/server/src/platform/media/audiobook-audio';
import { modelStore } from '../apps/server/src/platform/models/model-store';
import { programHost } from '../apps/server/src/platform/program-host';
import { LocalStorage } from '../apps/server/src/platform/storage/local-storage';
import { createProviders } from '../apps/server/src/providers';
import { useChildBundle } from '../apps/server/src/providers/engines/child-entry';
import { EnginePool as Pool } from '../apps/server/src/providers/engines/engine-pool';
import { kokoroFiles, piperFiles } from '../apps/server/src/providers/tts/engines/neural-model-files';
import type { EngineSynthesisRequest } from '../apps/server/src/providers/tts/tts-provider';
import { newSpeechAccount } from '../apps/server/src/test/speech-fixtures';
import { STUDIO_DEFAULT_VOICE_ID } from '../packages/contracts/src/studio';
import { descendants } from './processes';

const root = path.resolve(import.meta.dirname, '..');
const BOOK_CHARS = Number(process.env.BOOK_CHARS) || 100_000;
const TARGET = { rtf: 15, benchGrowthMb: 150 };
const PIPER: Omit<EngineSynthesisRequest, 'text'> = { engine: 'piper', voice: 'en_US-joe-medium' };
const KOKORO: Omit<EngineSynthesisRequest, 'text'> = { engine: 'kokoro', voice: 'af_heart' };
/** The pauses a conversion puts between sentences and between paragraphs (digital silence: room tone later). */
const SENTENCE_PAUSE_SEC = 0.25;
const PARAGRAPH_PAUSE_SEC = 0.7;
const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

// ——— The book ———

const NAMES = [
  'Maren',
  'Tobias',
  'Ines',
  'Old Halvard',
  'Captain Reyes',
  'the schoolteacher',
  'Petra',
  'young Ansel',
];
const PLACES = [
  'the harbour',
  'the lamp room',
  'the village square',
  'the cliff path',
  'the chapel',
  'the boathouse',
  'the market',
  'the lower field',
];
const THINGS = [
  'a leather logbook',
  'the brass lantern',
  'a bundle of letters',
  'the tide tables',
  'a cracked compass',
  'the spare wick',
  'a tin of biscuits',
  'the signal flags',
];
const WEATHER = [
  'the fog rolled in from the west',
  'a thin rain began to fall',
  'the wind turned sharply north',
  'the sky cleared to a pale blue',
  'the first snow settled on the roofs',
  'the sea lay flat and grey',
];
const VERBS = ['carried', 'found', 'mended', 'counted', 'hid', 'polished', 'read', 'lost'];
const FEELINGS = [
  'uneasy',
  'hopeful',
  'tired but content',
  'strangely calm',
  'curious',
  'angry with himself',
  'afraid of nothing in particular',
];
const TIMES = [
  'at dawn',
  'just after noon',
  'before supper',
  'late that night',
  'on the third morning',
  'in the last week of October',
];
const QUESTIONS = [
  'Who had left the door open?',
  'Why had the bell stopped ringing?',
  'Was the light still burning?',
  'What would the keeper say?',
  'How many boats were still out?',
];
const SAYINGS = [
  'We wait for the tide, and then we go.',
  'Nobody sleeps until the last boat is in.',
  'A light that fails once is never trusted again.',
  'Count the steps, and the stairs will never fool you.',
  'The sea keeps its own calendar.',
];

/** A generated novel: varied sentence shapes, dialogue, numbers and dates, in paragraphs and chapters. */
export function bookText(chars: number, seed = 30): { title: string; paragraphs: string[] }[] {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const sentence = (): string => {
    switch (Math.floor(random() * 9)) {
      case 0:
        return `${cap(pick(NAMES))} ${pick(VERBS)} ${pick(THINGS)} in ${pick(PLACES)} ${pick(TIMES)}.`;
      case 1:
        return `${cap(pick(TIMES))}, ${pick(WEATHER)}, and ${pick(NAMES)} felt ${pick(FEELINGS)}.`;
      case 2:
        return `"${pick(SAYINGS)}" said ${pick(NAMES)}, without looking up from ${pick(THINGS)}.`;
      case 3:
        return pick(QUESTIONS);
      case 4:
        return `There were ${2 + Math.floor(random() * 40)} boats in ${pick(PLACES)} that year, and ${1 + Math.floor(random() * 9)} of them had blue sails.`;
      case 5:
        return `The entry for ${1 + Math.floor(random() * 28)} March ${1890 + Math.floor(random() * 40)} said only that ${pick(WEATHER)}.`;
      case 6:
        return `When ${pick(NAMES)} reached ${pick(PLACES)}, ${pick(NAMES)} was already there, holding ${pick(THINGS)} as if it might break.`;
      case 7:
        return `Nobody spoke of it again; still, ${pick(NAMES)} kept ${pick(THINGS)} close, and on clear nights ${pick(WEATHER).replace('the', 'a')}.`;
      default:
        return `${cap(pick(NAMES))} climbed the ${80 + Math.floor(random() * 60)} steps to ${pick(PLACES)} and stood there ${pick(TIMES)}.`;
    }
  };
  const chapterNames = ['Prologue', 'The Keeper', 'Fog', 'Letters', 'The Storm Year', 'The Last Light'];
  // Unequal chapters, as books have them: shares of the book (the short prologue is the baseline's).
  const shares = [0.04, 0.16, 0.2, 0.14, 0.26, 0.2];
  return chapterNames.map((name, i) => {
    const paragraphs: string[] = [];
    let length = 0;
    const want = chars * (shares[i] as number);
    while (length < want) {
      const count = 3 + Math.floor(random() * 5);
      const paragraph = Array.from({ length: count }, sentence).join(' ');
      paragraphs.push(paragraph);
      length += paragraph.length + 1;
    }
    return { title: i === 0 ? name : `Chapter ${i}: ${name}`, paragraphs };
  });
}

// ——— Measuring ———

/** A process's peak resident memory (VmHWM) and current (VmRSS), MB; 0 once gone. */
function memoryMb(pid: number | 'self'): { peak: number; now: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
  } catch {
    return { peak: 0, now: 0 };
  }
}

function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const times = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 15)
      .map(Number);
    return times.reduce((sum, t) => sum + (t || 0), 0) / 100;
  } catch {
    return 0;
  }
}

function engineChildren(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('engine-child.js');
    } catch {
      return false;
    }
  });
}

/** One engine piece of a chapter and the pause after it. */
interface Piece {
  text: string;
  pauseSec: number;
}

/** A chapter's text as engine pieces: normalised, cut at sentences into ≤ 150-character pieces. */
function chapterPieces(chapter: { title: string; paragraphs: string[] }): Piece[] {
  const pieces: Piece[] = [];
  for (const [p, paragraph] of [chapter.title, ...chapter.paragraphs].entries()) {
    const text = normalizeEnglish(paragraph).text;
    const ranges = splitSentences(text);
    ranges.forEach((r, i) => {
      const last = i === ranges.length - 1;
      pieces.push({
        text: text.slice(r.start, r.end).trim(),
        pauseSec: last ? (p === 0 ? 1 : PARAGRAPH_PAUSE_SEC) : SENTENCE_PAUSE_SEC,
      });
    });
  }
  return pieces.filter((x) => x.text !== '');
}

/**
 * Speaks a chapter's pieces with `workers` requests in flight (one per engine child) into a WAV on disk,
 * in order: a piece's audio is written as soon as those before it are, so at most a few pieces are held.
 */
async function speakChapter(
  pool: Pool,
  voice: Omit<EngineSynthesisRequest, 'text'>,
  pieces: Piece[],
  file: string,
  workers = 2,
): Promise<{ audioSec: number; sampleRate: number }> {
  let writer: WavFileWriter | undefined;
  const done = new Map<number, { samples: Int16Array; sampleRate: number }>();
  let nextToWrite = 0;
  let nextToStart = 0;
  let writing = Promise.resolve();
  const flush = async () => {
    while (done.has(nextToWrite)) {
      const result = done.get(nextToWrite) as { samples: Int16Array; sampleRate: number };
      done.delete(nextToWrite);
      writer ??= await WavFileWriter.create(file, result.sampleRate);
      await writer.write(result.samples);
      await writer.write(
        new Int16Array(Math.round(result.sampleRate * (pieces[nextToWrite] as Piece).pauseSec)),
      );
      nextToWrite += 1;
    }
  };
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (nextToStart < pieces.length) {
        const index = nextToStart++;
        const result = (await pool.synthesize(
          { ...voice, text: (pieces[index] as Piece).text },
          { timeoutMs: 180_000 },
        )) as { samples: Int16Array; sampleRate: number };
        done.set(index, result);
        writing = writing.then(flush);
        await writing;
      }
    }),
  );
  await writing;
  const w = writer as WavFileWriter;
  const samples = await w.close();
  return { audioSec: samples / w.sampleRate, sampleRate: w.sampleRate };
}

/**
 * The server as main.ts composes it (PGlite on a fresh DATA_DIR with its migrations, the module seeding,
 * the model store checked, two warmed-up engine children, the program host, the job worker with every
 * module's jobs, the HTTP app listening on 127.0.0.1), but for warmModules: no voice previews.
 */
async function startServer(dataDir: string) {
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ENGINE_POOL_SIZE: '2', HOST: '127.0.0.1', PORT: '0' },
    [],
  );
  const logger = createLogger(config.log);
  const storage = new LocalStorage(path.join(config.dataDir, 'files'));
  const database = await openDatabase(config.database);
  await database.migrate();
  await seedModules({ db: database.db, storage, logger });
  const models = modelStore();
  models.check();
  const engines = new Pool({ ...config.engines, size: 2, logger, warmUp: true });
  await engines.start();
  programHost.start();
  const leases = await startGenerationLeases(database, config.generationLeaseMs, logger);
  const queue = new JobQueue(database.db);
  const deps: AppDeps = {
    config,
    version: 'bench',
    logger,
    database,
    storage,
    queue,
    engines,
    leases,
    events: createEventBus({ db: database.db, queue, logger, clock: systemClock, storage }),
    models,
    providers: createProviders(config, { engines, keepOutbox: outboxKeeper(database.db), logger }),
    auth: createAuthGuard({ db: database.db, clock: systemClock, authSecret: config.authSecret }),
    clock: systemClock,
    shareableKinds: SHAREABLE_KINDS,
    workspaceFields: WORKSPACE_FIELDS,
  };
  const worker = new JobWorker({
    db: database.db,
    definitions: workerJobs(deps),
    ...config.jobs,
    logger,
    exclusiveDatabase: database.kind === 'pglite',
  });
  queue.onEnqueued = () => worker.wake();
  await worker.start();
  const app = await buildApp(deps);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    deps,
    url,
    stop: async () => {
      await app.close();
      await worker.stop(20_000);
      await engines.stop();
      leases.stop();
      await deps.providers.mail.close();
      await database.close();
    },
  };
}

export async function run(): Promise<void> {
  const piper = piperFiles('en_US-joe-medium');
  if (!piper || !fs.existsSync(piper.model) || !fs.existsSync(kokoroFiles().model)) {
    console.log('SKIP: the neural models are not installed (scripts/ensure-node-deps.sh).');
    return;
  }
  fs.mkdirSync(path.join(root, 'apps/server/.tmp'), { recursive: true });
  const bundleDir = fs.mkdtempSync(path.join(root, 'apps/server/.tmp/studio-bench-'));
  execFileSync(
    process.execPath,
    [path.join(root, 'scripts/build-server.mjs'), '--engine-child-only', bundleDir],
    { stdio: 'ignore' },
  );
  useChildBundle(path.join(bundleDir, 'engine-child.js'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-studio-bench-'));

  const book = bookText(BOOK_CHARS);
  const chars = book.reduce(
    (n, c) => n + c.title.length + c.paragraphs.reduce((m, p) => m + p.length + 1, 0),
    0,
  );
  console.log(
    `book: ${chars} characters, ${book.length} chapters (${book.map((c) => c.paragraphs.length).join('/')} paragraphs); load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  const t = await startServer(path.join(work, 'data'));
  const baseUrl = t.url;
  try {
    const account = await newSpeechAccount(t.app, baseUrl);
    // Enough credits and projects for a book (the plan's limits are not what is measured).
    await t.deps.database.db
      .update(workspaces)
      .set({ tier: 'enterprise' })
      .where(eq(workspaces.id, account.workspaceId));
    const api = async (method: string, pathname: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${pathname}`, {
        method,
        headers: {
          'xi-api-key': account.key,
          ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
      });
      if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
      return response;
    };
    // The engine calls, counted where the speech pipeline makes them.
    const engines = t.deps.providers.tts;
    const synthesize = engines.synthesize.bind(engines);
    const engineCalls: string[] = [];
    engines.synthesize = (request, options) => {
      engineCalls.push(request.text);
      return synthesize(request, options);
    };
    // Both children warm with both neural models loaded, as the server's are after their first requests.
    const pool = t.deps.engines;
    for (const voice of [PIPER, KOKORO])
      await Promise.all(
        [0, 1].map(() => pool.synthesize({ ...voice, text: 'Hello there.' }, { timeoutMs: 180_000 })),
      );

    // ——— The project: the book as content JSON, nothing but the name and ACX normalisation named ———
    const form = new FormData();
    form.append('name', 'The Last Light');
    form.append('title', 'The Last Light');
    form.append('author', 'Parla Bench');
    form.append('acx_volume_normalization', 'true');
    form.append(
      'from_content_json',
      JSON.stringify(
        book.map((c) => ({
          name: c.title,
          blocks: [
            {
              sub_type: 'h1',
              nodes: [{ type: 'tts_node', text: c.title, voice_id: STUDIO_DEFAULT_VOICE_ID }],
            },
            ...c.paragraphs.map((text) => ({
              sub_type: 'p',
              nodes: [{ type: 'tts_node', text, voice_id: STUDIO_DEFAULT_VOICE_ID }],
            })),
          ],
        })),
      ),
    );
    const created = (await (await api('POST', '/v1/studio/projects', form)).json()) as {
      project: { project_id: string; default_model_id: string; default_paragraph_voice_id: string };
    };
    const projectId = created.project.project_id;
    console.log(
      `project: default voice ${created.project.default_paragraph_voice_id}, model ${created.project.default_model_id} (the defaults of a project that names none)`,
    );
    const blocksDir = path.join(
      t.deps.config.dataDir,
      'files',
      'studio',
      account.workspaceId,
      projectId,
      'blocks',
    );
    const blockFiles = () =>
      fs.existsSync(blocksDir) ? fs.readdirSync(blocksDir).filter((f) => f.endsWith('.wav')).length : 0;

    const children = engineChildren();
    const childCpu = () => children.reduce((s, pid) => s + cpuSeconds(pid), 0);
    const treeCpu = () =>
      cpuSeconds(process.pid) + descendants(process.pid).reduce((s, pid) => s + cpuSeconds(pid), 0);
    const benchBefore = memoryMb('self').now;
    let benchPeakNow = benchBefore;
    const childWarm = children.map((pid) => memoryMb(pid).now);
    const childMax = [...childWarm];
    const sampler = setInterval(() => {
      benchPeakNow = Math.max(benchPeakNow, memoryMb('self').now);
      children.forEach((pid, i) => {
        childMax[i] = Math.max(childMax[i] as number, memoryMb(pid).now);
      });
    }, 200);

    const convert = async () => {
      await api('POST', `/v1/studio/projects/${projectId}/convert`);
      for (;;) {
        await new Promise((r) => setTimeout(r, 250));
        const project = (await (await api('GET', `/v1/studio/projects/${projectId}`)).json()) as {
          state: string;
          chapters: { last_conversion_error: string | null }[];
        };
        if (project.state !== 'converting') {
          const error = project.chapters.find((c) => c.last_conversion_error)?.last_conversion_error;
          if (error) throw new Error(`the conversion failed: ${error}`);
          return;
        }
      }
    };

    // ——— The book with the default voice, end to end ———
    const tree0 = treeCpu();
    const cpu0 = childCpu();
    const started = performance.now();
    await convert();
    const convertedAt = performance.now();
    const synthCpu = childCpu() - cpu0;
    const m4b = path.join(work, 'book.m4b');
    const response = await api('GET', `/v1/studio/projects/${projectId}/export?format=m4b`);
    await pipeline(Readable.fromWeb(response.body as never), fs.createWriteStream(m4b));
    const wall = (performance.now() - started) / 1000;
    const convertWall = (convertedAt - started) / 1000;
    clearInterval(sampler);
    const treeUsed = treeCpu() - tree0;
    const snapshots = (await (await api('GET', `/v1/studio/projects/${projectId}/snapshots`)).json()) as {
      snapshots: { project_snapshot_id: string }[];
    };
    const snapshot = (await (
      await api(
        'GET',
        `/v1/studio/projects/${projectId}/snapshots/${snapshots.snapshots[0]?.project_snapshot_id}`,
      )
    ).json()) as { audio_duration_secs: number };
    const audioSec = snapshot.audio_duration_secs;
    const rtf = audioSec / wall;
    const firstCalls = engineCalls.length;
    console.log(
      `Studio API, default voice (Piper en_US-joe-medium): ${chars} characters → ${audioSec.toFixed(0)} s of audio (${(audioSec / 60).toFixed(1)} min, room tone included) in ${wall.toFixed(1)} s wall = ${rtf.toFixed(1)}× real time (target ≥ ${TARGET.rtf}) ${pass(rtf >= TARGET.rtf)}`,
    );
    console.log(
      `  convert ${convertWall.toFixed(1)} s (${(audioSec / convertWall).toFixed(1)}× real time; ${firstCalls} engine calls, ${blockFiles()} blocks; engine children ${(synthCpu / audioSec).toFixed(3)} CPU-s per audio-s), m4b export ${(wall - convertWall).toFixed(1)} s (${(fs.statSync(m4b).size / 1e6).toFixed(1)} MB)`,
    );
    console.log(
      `  CPU: ${treeUsed.toFixed(0)} CPU-s in all (${(treeUsed / audioSec).toFixed(3)} per audio-s: engine children ${synthCpu.toFixed(0)}, the rest — server, PGlite, mastering, ffmpeg — ${(treeUsed - synthCpu).toFixed(0)}) ⇒ ${((2 * audioSec) / treeUsed).toFixed(1)}× real time with both cores idle; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const chapters = (await (await api('GET', `/v1/studio/projects/${projectId}/chapters`)).json()) as {
      chapters: { chapter_id: string }[];
    };
    const reports: { pass: boolean; rms_db: number; peak_db: number; noise_floor_db: number }[] = [];
    for (const c of chapters.chapters)
      reports.push(
        (await (
          await api('GET', `/v1/studio/projects/${projectId}/chapters/${c.chapter_id}/acx`)
        ).json()) as (typeof reports)[number],
      );
    console.log(
      `  ACX (the chapters' reports): ${reports.filter((r) => r.pass).length} of ${reports.length} pass; RMS ${reports.map((a) => a.rms_db.toFixed(1)).join('/')} dB, peak ${reports.map((a) => a.peak_db.toFixed(1)).join('/')} dB, noise floor ${reports.map((a) => a.noise_floor_db.toFixed(1)).join('/')} dB`,
    );
    const bench = memoryMb('self');
    const growth = benchPeakNow - benchBefore;
    console.log(
      `  memory: this process (the server) ${bench.peak.toFixed(0)} MB peak RSS (VmHWM), ${benchBefore.toFixed(0)} → ${benchPeakNow.toFixed(0)} MB during the conversion (growth ${growth.toFixed(0)} MB; bound ≤ ${TARGET.benchGrowthMb}) ${pass(growth <= TARGET.benchGrowthMb)}; engine children ${childWarm.map((m, i) => `${m.toFixed(0)} → ${(childMax[i] as number).toFixed(0)} MB`).join(', ')}`,
    );

    // ——— Reconversion after editing one paragraph ———
    const chapterId = chapters.chapters[2]?.chapter_id as string;
    const chapter = (await (
      await api('GET', `/v1/studio/projects/${projectId}/chapters/${chapterId}`)
    ).json()) as {
      content: {
        blocks: { block_id: string; sub_type: string; nodes: { text: string; voice_id: string }[] }[];
      };
    };
    const edited =
      'The keeper closed the logbook, and for once the fog kept its distance from the lamp room.';
    // A paragraph in the middle of the chapter (block 0 is its heading).
    const target = Math.min(3, chapter.content.blocks.length - 1);
    await api('POST', `/v1/studio/projects/${projectId}/chapters/${chapterId}`, {
      content: {
        blocks: chapter.content.blocks.map((b, i) => ({
          block_id: b.block_id,
          sub_type: b.sub_type,
          nodes: b.nodes.map((n) => ({
            type: 'tts_node',
            text: i === target ? edited : n.text,
            voice_id: n.voice_id,
          })),
        })),
      },
    });
    engineCalls.length = 0;
    const filesBefore = blockFiles();
    const r0 = performance.now();
    await convert();
    const rWall = (performance.now() - r0) / 1000;
    const respoken = blockFiles() - filesBefore;
    console.log(
      `reconversion after editing one paragraph: ${respoken} block spoken again (target exactly 1) ${pass(respoken === 1)}, ${engineCalls.length} engine calls (its sentences: ${engineCalls.map((x) => JSON.stringify(x)).join(', ')}); ${rWall.toFixed(1)} s wall (every chapter reassembled and mastered again)`,
    );

    // ——— Baseline: Kokoro's default voice on the shortest chapter, same pool ———
    const pieces = book.map(chapterPieces);
    const shortest = pieces.reduce(
      (best, p, i) => (p.length < (pieces[best] as Piece[]).length ? i : best),
      0,
    );
    const kChars = pieces[shortest]?.reduce((n, p) => n + p.text.length + 1, 0) ?? 0;
    const kCpu0 = childCpu();
    const k0 = performance.now();
    const kokoro = await speakChapter(
      pool,
      KOKORO,
      pieces[shortest] as Piece[],
      path.join(work, 'kokoro.wav'),
    );
    const kWall = (performance.now() - k0) / 1000;
    const kCpu = childCpu() - kCpu0;
    console.log(
      `baseline, Kokoro af_heart (parla_neural_v1) on chapter ${shortest + 1} (${kChars} characters): ${kokoro.audioSec.toFixed(0)} s of speech in ${kWall.toFixed(1)} s = ${(kokoro.audioSec / kWall).toFixed(1)}× real time synthesis only (${(kCpu / kokoro.audioSec).toFixed(3)} CPU-s per audio-s)`,
    );
    console.log(
      `load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await t.stop();
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(bundleDir, { recursive: true, force: true });
  }
}
