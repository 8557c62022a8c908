/**
 * Studio's audiobook conversion (issue 30 "Performance"): a 100,000-character book converted end to end
 * at ≥ 15× real time on 2 cores with the Studio default voice, memory bounded.
 *
 * NOTE: until the Studio module's conversion job lands, this drives the engine pool and the audiobook
 * audio functions directly, the way a conversion does (text normalised and cut into engine pieces as the
 * speech pipeline cuts them, each chapter's audio streamed to a WAV on disk, then mastered to ACX and
 * exported); the lead will switch it to the Studio API (create project → convert → export) later.
 *
 * - The book: a generated text (bookText below: seeded, varied sentences, paragraphs and six chapters of
 *   unequal length), ~100,000 characters.
 * - The default voice: `parla_neural_fast_v1`'s Piper voice (en_US-joe-medium), the Studio default,
 *   since Kokoro cannot reach 15× on 2 cores (docs/decisions/0025-studio.md).
 * - End to end: the pool's two engine children (one per core, as the server runs them) speak the
 *   pieces in order; each chapter is written to disk as it comes, then (while the next chapter is
 *   spoken) mastered — room tone, gain to −20 dB RMS, the −3.5 dBFS limiter, ACX measured before/after —
 *   and encoded as its ACX mp3; at the end the m4b with chapter marks. Wall time from the first piece to
 *   the m4b written; ×real time = the book's audio seconds over that.
 * - Memory: the peak RSS of this process (VmHWM) and its growth over the conversion (bound: 150 MB, well
 *   under the ~270 MB the book's samples would take if held), and each engine child's RSS warmed up
 *   (both neural models loaded, as the server's children are) and its highest during each chapter
 *   (sampled every 200 ms). Bound: bounded, not growing with the book — the chapters after the first
 *   (96 % of the book) add ≤ 50 MB to the highest RSS of the first.
 * - Baseline in the same run: Kokoro's default voice (af_heart, `parla_neural_v1`) speaking the book's
 *   shortest chapter through the same pool: its ×real time.
 *
 * `npm run bench -- studio`. BOOK_CHARS sets the book's length (default 100,000).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { normalizeEnglish, seededRandom, splitSentences } from '@parla/audio';
import { createLogger } from '../apps/server/src/platform/logger';
import { masterChapterWav, WavFileWriter } from '../apps/server/src/platform/media/audiobook-audio';
import { exportChapterMp3, exportM4b } from '../apps/server/src/platform/media/audiobook-export';
import { useChildBundle } from '../apps/server/src/providers/engines/child-entry';
import { EnginePool } from '../apps/server/src/providers/engines/engine-pool';
import { kokoroFiles, piperFiles } from '../apps/server/src/providers/tts/engines/neural-model-files';
import type { EngineSynthesisRequest } from '../apps/server/src/providers/tts/tts-provider';
import { descendants } from './processes';

const root = path.resolve(import.meta.dirname, '..');
const BOOK_CHARS = Number(process.env.BOOK_CHARS) || 100_000;
const TARGET = { rtf: 15, benchGrowthMb: 150, childLaterGrowthMb: 50 };
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
  pool: EnginePool,
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
    {
      stdio: 'ignore',
    },
  );
  useChildBundle(path.join(bundleDir, 'engine-child.js'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-studio-bench-'));

  const book = bookText(BOOK_CHARS);
  const chars = book.reduce(
    (n, c) => n + c.title.length + c.paragraphs.reduce((m, p) => m + p.length + 1, 0),
    0,
  );
  const pieces = book.map(chapterPieces);
  console.log(
    `book: ${chars} characters, ${book.length} chapters (${book.map((c) => c.paragraphs.length).join('/')} paragraphs), ${pieces.flat().length} engine pieces; load average ${os.loadavg()[0]?.toFixed(1)}`,
  );

  const logger = createLogger({ level: 'error' });
  const pool = new EnginePool({ size: 2, timeoutMs: 180_000, logger, warmUp: true });
  await pool.start();
  try {
    // Both children warm (each loads the neural models at its start, as the server's pool does).
    await Promise.all(
      [0, 1].map(() => pool.synthesize({ ...PIPER, text: 'Hello there.' }, { timeoutMs: 180_000 })),
    );
    await Promise.all(
      [0, 1].map(() => pool.synthesize({ ...KOKORO, text: 'Hello there.' }, { timeoutMs: 180_000 })),
    );
    const children = engineChildren();
    const childCpu = () => children.reduce((s, pid) => s + cpuSeconds(pid), 0);
    const benchBefore = memoryMb('self').now;
    let benchPeakNow = benchBefore;
    const childWarm = children.map((pid) => memoryMb(pid).now);
    const childMax = [...childWarm];
    /** Each child's highest RSS during each chapter (the last entry is the chapter being spoken). */
    const chapterMax: number[][] = [];
    const sampler = setInterval(() => {
      benchPeakNow = Math.max(benchPeakNow, memoryMb('self').now);
      children.forEach((pid, i) => {
        const now = memoryMb(pid).now;
        childMax[i] = Math.max(childMax[i] as number, now);
        const current = chapterMax[chapterMax.length - 1];
        if (current) current[i] = Math.max(current[i] as number, now);
      });
    }, 200);
    // Everything the conversion costs: this process (mastering; the ffmpeg runs reaped by the program
    // host count in the host's figures), the engine children and the program hosts.
    const treeCpu = () =>
      cpuSeconds(process.pid) + descendants(process.pid).reduce((s, pid) => s + cpuSeconds(pid), 0);
    const tree0 = treeCpu();

    // ——— The book with the default voice, end to end ———
    const meta = {
      title: 'The Last Light',
      author: 'Parla Bench',
      genres: ['Fiction'],
      date: '2026',
      isbn: '978-0-00-000000-0',
    };
    const cpu0 = childCpu();
    const started = performance.now();
    let synthWall = 0;
    let audioSec = 0;
    const mastering: Promise<{
      file: string;
      title: string;
      report: Awaited<ReturnType<typeof masterChapterWav>>;
    }>[] = [];
    for (const [i, chapter] of book.entries()) {
      const raw = path.join(work, `raw-${i}.wav`);
      chapterMax.push(children.map((pid) => memoryMb(pid).now));
      const t0 = performance.now();
      const spoken = await speakChapter(pool, PIPER, pieces[i] as Piece[], raw);
      synthWall += (performance.now() - t0) / 1000;
      audioSec += spoken.audioSec;
      // Mastered and encoded while the next chapter is spoken (the engines are in their own processes).
      const previous = mastering[mastering.length - 1];
      mastering.push(
        (async () => {
          await previous;
          const file = path.join(work, `chapter-${i}.wav`);
          const report = await masterChapterWav(raw, file, { normalize: true, seed: i + 1 });
          fs.rmSync(raw);
          await exportChapterMp3({ file, title: chapter.title }, path.join(work, `chapter-${i}.mp3`), meta, {
            number: i + 1,
            total: book.length,
          });
          return { file, title: chapter.title, report };
        })(),
      );
    }
    const synthCpu = childCpu() - cpu0;
    const chapters = await Promise.all(mastering);
    const masteredAt = performance.now();
    const m4b = path.join(work, 'book.m4b');
    await exportM4b(chapters, m4b, meta);
    const wall = (performance.now() - started) / 1000;
    const m4bSec = (performance.now() - masteredAt) / 1000;
    clearInterval(sampler);
    const treeUsed = treeCpu() - tree0;
    const rtf = audioSec / wall;
    const masteredSec = chapters.reduce((s, c) => s + c.report.sampleCount / c.report.sampleRate, 0);

    console.log(
      `Piper en_US-joe-medium (Studio default): ${chars} characters → ${audioSec.toFixed(0)} s of speech (${(masteredSec / 60).toFixed(1)} min mastered with room tone) in ${wall.toFixed(1)} s wall = ${rtf.toFixed(1)}× real time (target ≥ ${TARGET.rtf}) ${pass(rtf >= TARGET.rtf)}`,
    );
    console.log(
      `  CPU: ${treeUsed.toFixed(0)} CPU-s in all (${(treeUsed / audioSec).toFixed(3)} per audio-s) ⇒ ${((2 * audioSec) / treeUsed).toFixed(1)}× real time with both cores idle; load average ${os.loadavg()[0]?.toFixed(1)}`,
    );
    console.log(
      `  synthesis ${synthWall.toFixed(1)} s (${(audioSec / synthWall).toFixed(1)}× real time, engine children ${(synthCpu / audioSec).toFixed(3)} CPU-s per audio-s); mastering + mp3 after the last chapter and the m4b: ${(wall - synthWall).toFixed(1)} s (m4b ${m4bSec.toFixed(1)} s, ${(fs.statSync(m4b).size / 1e6).toFixed(1)} MB)`,
    );
    const after = chapters.map((c) => c.report.after);
    console.log(
      `  ACX after mastering: ${after.filter((a) => a.pass).length} of ${after.length} chapters pass; RMS ${after.map((a) => a.rms_db.toFixed(1)).join('/')} dB, peak ${after.map((a) => a.peak_db.toFixed(1)).join('/')} dB, noise floor ${after.map((a) => a.noise_floor_db.toFixed(1)).join('/')} dB (before: RMS ${chapters.map((c) => c.report.before.rms_db.toFixed(1)).join('/')}, peak ${chapters.map((c) => c.report.before.peak_db.toFixed(1)).join('/')})`,
    );
    const bench = memoryMb('self');
    const growth = benchPeakNow - benchBefore;
    console.log(
      `  memory: this process ${bench.peak.toFixed(0)} MB peak RSS (VmHWM), ${benchBefore.toFixed(0)} → ${benchPeakNow.toFixed(0)} MB during the conversion (growth ${growth.toFixed(0)} MB; bound ≤ ${TARGET.benchGrowthMb}) ${pass(growth <= TARGET.benchGrowthMb)}`,
    );
    // Bounded, not growing with the book: what the chapters after the first add to the highest RSS of
    // the first (4 % of the book) — a child that held or leaked per piece would keep climbing.
    const laterGrowth = children.map(
      (_, i) =>
        Math.max(...chapterMax.slice(1).map((c) => c[i] as number)) - ((chapterMax[0] ?? [])[i] as number),
    );
    console.log(
      `  engine children RSS: ${childWarm.map((m, i) => `${m.toFixed(0)} → ${(childMax[i] as number).toFixed(0)} MB`).join(', ')} (warmed up with Kokoro and Piper loaded → highest during the conversion); highest per chapter ${children.map((_, i) => chapterMax.map((c) => (c[i] as number).toFixed(0)).join('/')).join(' and ')} MB; growth after the first chapter ${laterGrowth.map((g) => g.toFixed(0)).join(', ')} MB (bound ≤ ${TARGET.childLaterGrowthMb}) ${pass(laterGrowth.every((g) => g <= TARGET.childLaterGrowthMb))}; lifetime peaks (VmHWM) ${children.map((pid) => memoryMb(pid).peak.toFixed(0)).join(', ')} MB`,
    );

    // ——— Baseline: Kokoro's default voice on the shortest chapter, same pool ———
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
      `baseline, Kokoro af_heart (parla_neural_v1) on chapter ${shortest + 1} (${kChars} characters): ${kokoro.audioSec.toFixed(0)} s of speech in ${kWall.toFixed(1)} s = ${(kokoro.audioSec / kWall).toFixed(1)}× real time synthesis only (${(kCpu / kokoro.audioSec).toFixed(3)} CPU-s per audio-s); Piper's synthesis ${(audioSec / synthWall / (kokoro.audioSec / kWall)).toFixed(1)}× Kokoro's`,
    );
    console.log(`load average at the end ${os.loadavg()[0]?.toFixed(1)}`);
  } finally {
    await pool.stop();
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(bundleDir, { recursive: true, force: true });
  }
}
