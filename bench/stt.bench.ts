/**
 * Speech to text (issue 19 "Performance"), each figure with its target and PASS/FAIL and a baseline
 * measured in the same run:
 * - word error rate of the embedded fast and accurate models on human read English speech (16 clips of
 *   four sources and several speakers, fetched by stt-data.ts; bench/README.md lists them), total and per
 *   clip, against the same clips with white noise at 20 dB SNR (the previous recogniser's published 35%
 *   on the LibriVox clips is printed as a reference line);
 * - word error rate on the same clips at telephone quality (8 kHz, 300–3,400 Hz, G.711 μ-law; issue 26
 *   item 8): the default model `parla_stt_v1` as served (the accurate recogniser on narrowband sources)
 *   and `parla_stt_accurate_v1`, against the fast recogniser as it heard them before (the telephone
 *   audio in a 16 kHz WAV, which the provider takes as wideband);
 * - word error rate on the five round-trip sentences spoken by each English premade voice;
 * - real-time factor of a 10-minute recording (the human clips looped with pauses, MP3) and of its
 *   telephone twin (the telephone copies looped, an 8 kHz μ-law WAV as a call recorder writes) through
 *   `POST /v1/speech-to-text` of the built server (as `npm start` runs it), against the provider alone
 *   (`MoonshineStt.transcribeFile` in this process, engine pool of the server's default size) on the
 *   same file; each with the CPU seconds its processes spent, and the real-time factor those allow on
 *   two otherwise idle cores (the shared machine's load changes wall times, not CPU);
 * - the server's resident memory (and its engine children's, apart) sampled every 200 ms while it
 *   transcribes a 1-hour file, against the idle server.
 *
 * `npm run bench -- stt` runs every part; `npm run bench -- stt wer roundtrip rtf memory` only those
 * named (the machine is shared: run the parts one at a time).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { seededRandom, wordErrorRate, plainWords as words } from '@parla/audio';
import { synthesizeSpeech } from '../apps/server/src/modules/tts/speech-pipeline';
import { createLogger } from '../apps/server/src/platform/logger';
import { EnginePool } from '../apps/server/src/providers/engines/engine-pool';
import { MoonshineStt } from '../apps/server/src/providers/stt/moonshine-stt';
import type { SttModelKind } from '../apps/server/src/providers/stt/stt-provider';
import { type EngineVoice, PREMADE_VOICES } from '../packages/contracts/src/tts-catalog';
import { descendants, rssMb } from './processes';
import { type Server, sleep, startParla } from './server';
import { clipPath, ensureSpeechClips, type SpeechClip, telephoneClipPath } from './stt-data';

const PARTS = ['wer', 'roundtrip', 'rtf', 'memory'] as const;
type Part = (typeof PARTS)[number];

/** The round-trip test's five sentences (speech-roundtrip.stress.test.ts, tts.bench.ts), 57 words. */
const SENTENCES =
  "The meeting has been moved to Thursday afternoon at three o'clock. Please bring the quarterly report and your laptop. The weather will be sunny with a light breeze from the west. We need to buy milk, bread and fresh eggs before the store closes. She finished reading the book and went to sleep early.";

const TARGET = {
  wer: 0.05,
  roundtripBest: 0.1,
  roundtripFlite: 0.15,
  rtf: 8,
  serverRssMb: 600,
};
/** The baseline's noise: white, at this signal-to-noise ratio over the whole clip. */
const NOISE_SNR_DB = 20;
/** The long recordings: the clips in turn with this pause between, until this long. */
const PAUSE_SECS = 0.8;
const TEN_MINUTES = 600;
const HOUR_LOOPS = 6;
const SAMPLE_EVERY_MS = 200;
/** Engine processes of the provider-alone baseline: the server's default (ENGINE_POOL_SIZE). */
const POOL_SIZE = Math.max(1, Math.min(4, os.cpus().length));
/** The previous recogniser (Debian's pocketsphinx) on the five LibriVox clips: research/speech-models.md. */
const POCKETSPHINX_LIBRIVOX_WER = 0.352;

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const MODELS: { kind: Exclude<SttModelKind, 'external'>; label: string }[] = [
  { kind: 'fast', label: 'fast (parla_stt_v1)' },
  { kind: 'accurate', label: 'accurate (parla_stt_accurate_v1)' },
];

// ---------------------------------------------------------------------------------------------------
// Audio helpers

/** A 16-bit PCM WAV's samples (the cache's clips are 16 kHz mono). */
function readWav(file: string): { sampleRate: number; samples: Int16Array } {
  const bytes = fs.readFileSync(file);
  let at = 12;
  let sampleRate = 16_000;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ') sampleRate = bytes.readUInt32LE(at + 12);
    if (id === 'data') {
      const data = bytes.subarray(at + 8, at + 8 + size);
      const samples = new Int16Array(data.length >> 1);
      for (let i = 0; i < samples.length; i += 1) samples[i] = data.readInt16LE(i * 2);
      return { sampleRate, samples };
    }
    at += 8 + size + (size & 1);
  }
  throw new Error(`${file}: no data chunk`);
}

/** The samples with white Gaussian noise added at `snrDb` below the clip's mean power. */
function withNoise(samples: Int16Array, snrDb: number, seed: number): Int16Array {
  let power = 0;
  for (const s of samples) power += s * s;
  power /= Math.max(1, samples.length);
  const sigma = Math.sqrt(power / 10 ** (snrDb / 10));
  const next = seededRandom(seed);
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) {
    const gauss = Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
    out[i] = Math.max(-32768, Math.min(32767, Math.round((samples[i] ?? 0) + gauss * sigma)));
  }
  return out;
}

/** A mono 16-bit PCM WAV at the audio's own rate. */
async function writeWav(file: string, audio: { sampleRate: number; samples: Int16Array }): Promise<string> {
  const data = audio.samples.length * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(audio.sampleRate, 24);
  header.writeUInt32LE(audio.sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data, 40);
  const body = Buffer.alloc(data);
  for (let i = 0; i < audio.samples.length; i += 1) body.writeInt16LE(audio.samples[i] ?? 0, i * 2);
  await fs.promises.writeFile(file, Buffer.concat([header, body]));
  return file;
}

/** A media file's mono samples at `rate` (ffmpeg), e.g. a telephone copy's μ-law at 8 kHz. */
function decodeSamples(file: string, rate: number): Int16Array {
  const bytes = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-nostdin', '-i', file, '-ac', '1', '-ar', String(rate), '-f', 's16le', '-'],
    { maxBuffer: 1 << 30 },
  );
  const samples = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

/** The transcript's text: its segments joined. */
async function hear(stt: MoonshineStt, file: string, model: SttModelKind, timestamps: 'none' | 'word') {
  const heard = await stt.transcribeFile({ file, model, timestamps, tenant: 'bench' });
  return heard.segments.map((s) => s.text).join(' ');
}

/**
 * Spellings that say the same words, made one before counting (as common WER normalisers do): the
 * references write "mister" and "meters" where the recogniser writes "Mr." and "metres".
 */
const SAME_WORDS: Record<string, string> = { mr: 'mister', metres: 'meters' };

function spelledAlike(text: string): string {
  return words(text)
    .map((w) => SAME_WORDS[w] ?? w)
    .join(' ');
}

/**
 * Word errors (edits) of a hypothesis against a reference, and the reference's length in words; `raw`
 * counts them without SAME_WORDS.
 */
function errors(reference: string, hypothesis: string): { errors: number; raw: number; words: number } {
  const count = words(reference).length;
  return {
    errors: Math.round(wordErrorRate(spelledAlike(reference), spelledAlike(hypothesis)) * count),
    raw: Math.round(wordErrorRate(reference, hypothesis) * count),
    words: count,
  };
}

/** An engine pool in this process (it serves the recogniser and the TTS engines alike), stopped after. */
async function withPool<T>(
  size: number,
  use: (stt: MoonshineStt, pool: EnginePool) => Promise<T>,
): Promise<T> {
  const pool = new EnginePool({ size, timeoutMs: 600_000, logger: createLogger({ level: 'silent' }) });
  await pool.start();
  try {
    return await use(new MoonshineStt(pool), pool);
  } finally {
    await pool.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// Word error rate on human speech

async function measureHumanWer(clips: readonly SpeechClip[], scratch: string): Promise<void> {
  const totalWords = clips.reduce((n, c) => n + words(c.reference).length, 0);
  const speakers = new Set(clips.map((c) => c.speaker)).size;
  const seconds = clips.reduce((n, c) => {
    const { sampleRate, samples } = readWav(clipPath(c));
    return n + samples.length / sampleRate;
  }, 0);
  console.log(
    `\n## Word error rate on human read English speech: ${clips.length} clips, ${totalWords} words, ${seconds.toFixed(1)} s, ${speakers} speakers/sources (bench/README.md)`,
  );
  console.log(
    `baseline: the same clips with white noise at ${NOISE_SNR_DB} dB SNR; reference line: Debian's pocketsphinx (the previous recogniser) ${pct(POCKETSPHINX_LIBRIVOX_WER)} on the five LibriVox clips (research/speech-models.md, not measured here)`,
  );
  const noisy = new Map<string, string>();
  for (const [i, clip] of clips.entries()) {
    const audio = readWav(clipPath(clip));
    noisy.set(
      clip.id,
      await writeWav(path.join(scratch, `${clip.id}.noisy.wav`), {
        sampleRate: audio.sampleRate,
        samples: withNoise(audio.samples, NOISE_SNR_DB, i + 1),
      }),
    );
  }
  await withPool(POOL_SIZE, async (stt) => {
    for (const model of MODELS) {
      const rows: { clip: SpeechClip; clean: string; noisy: string; seconds: number }[] = [];
      const started = performance.now();
      for (const clip of clips) {
        const t0 = performance.now();
        const clean = await hear(stt, clipPath(clip), model.kind, 'none');
        const seconds = (performance.now() - t0) / 1000;
        rows.push({ clip, clean, noisy: '', seconds });
      }
      const cleanWall = (performance.now() - started) / 1000;
      for (const row of rows)
        row.noisy = await hear(stt, noisy.get(row.clip.id) as string, model.kind, 'none');
      console.log(`\n### ${model.label}`);
      console.log(
        `${'clip'.padEnd(24)} ${'words'.padStart(5)} ${'WER'.padStart(6)} ${'noisy'.padStart(6)}  heard (where it differs)`,
      );
      let clean = 0;
      let cleanRaw = 0;
      let noisyErrors = 0;
      let librivox = { errors: 0, words: 0 };
      for (const row of rows) {
        const c = errors(row.clip.reference, row.clean);
        const n = errors(row.clip.reference, row.noisy);
        clean += c.errors;
        cleanRaw += c.raw;
        noisyErrors += n.errors;
        if (row.clip.id.startsWith('librivox'))
          librivox = { errors: librivox.errors + c.errors, words: librivox.words + c.words };
        console.log(
          `${row.clip.id.padEnd(24)} ${String(c.words).padStart(5)} ${pct(c.errors / c.words).padStart(6)} ${pct(n.errors / n.words).padStart(6)}  ${c.errors > 0 ? `"${row.clean}"` : ''}`,
        );
      }
      const total = clean / totalWords;
      const totalNoisy = noisyErrors / totalWords;
      console.log(
        `${'total'.padEnd(24)} ${String(totalWords).padStart(5)} ${pct(total).padStart(6)} ${pct(totalNoisy).padStart(6)}  target ≤ ${pct(TARGET.wer)} ${verdict(total <= TARGET.wer)}; noisy/clean ${(totalNoisy / Math.max(total, 1 / totalWords)).toFixed(1)}× (clean counted as ≥ 1 error); ${cleanWall.toFixed(1)} s for the clean clips (${(seconds / cleanWall).toFixed(1)}× real time, clip by clip)`,
      );
      console.log(
        `without the spelling equivalences (Mr./mister, metres/meters): ${pct(cleanRaw / totalWords)}`,
      );
      console.log(
        `LibriVox clips alone: ${pct(librivox.errors / librivox.words)} (${librivox.words} words) against pocketsphinx's ${pct(POCKETSPHINX_LIBRIVOX_WER)}`,
      );
    }
  });
}

// ---------------------------------------------------------------------------------------------------
// Word error rate on telephone speech (issue 26 item 8)

async function measureTelephoneWer(clips: readonly SpeechClip[], scratch: string): Promise<void> {
  const totalWords = clips.reduce((n, c) => n + words(c.reference).length, 0);
  console.log(
    `\n## Word error rate on telephone speech: the same ${clips.length} clips at 8 kHz, 300–3,400 Hz, G.711 μ-law (the Asterisk prompts from their 8 kHz recordings), ${totalWords} words`,
  );
  console.log(
    'baseline: the fast recogniser (Moonshine tiny) as parla_stt_v1 heard telephone audio before issue 26: the same audio in a 16 kHz WAV, which the provider takes as wideband (tiny, 0.15 s read before each segment)',
  );
  // The baseline's input: the telephone audio itself (μ-law decoded), carried at 16 kHz.
  const wide = new Map<string, string>();
  for (const clip of clips)
    wide.set(
      clip.id,
      await writeWav(path.join(scratch, `${clip.id}.telephone16k.wav`), {
        sampleRate: 16_000,
        samples: decodeSamples(telephoneClipPath(clip), 16_000),
      }),
    );
  const columns = [
    { label: 'tiny before', file: (c: SpeechClip) => wide.get(c.id) as string, model: 'fast' as const },
    { label: 'default', file: telephoneClipPath, model: 'fast' as const },
    { label: 'accurate', file: telephoneClipPath, model: 'accurate' as const },
  ];
  await withPool(POOL_SIZE, async (stt) => {
    const heard = new Map<string, string[]>();
    const walls: number[] = [];
    for (const column of columns) {
      const started = performance.now();
      for (const clip of clips) {
        const list = heard.get(clip.id) ?? [];
        list.push(await hear(stt, column.file(clip), column.model, 'none'));
        heard.set(clip.id, list);
      }
      walls.push((performance.now() - started) / 1000);
    }
    console.log(
      `${'clip'.padEnd(24)} ${'words'.padStart(5)} ${'tiny before'.padStart(11)} ${'parla_stt_v1'.padStart(12)} ${'accurate'.padStart(8)}  heard by parla_stt_v1 (where it errs)`,
    );
    const totals = columns.map(() => 0);
    for (const clip of clips) {
      const texts = heard.get(clip.id) ?? [];
      const counted = texts.map((text) => errors(clip.reference, text));
      counted.forEach((c, i) => {
        totals[i] = (totals[i] ?? 0) + c.errors;
      });
      const count = words(clip.reference).length;
      const cell = (i: number, width: number) => pct((counted[i]?.errors ?? 0) / count).padStart(width);
      console.log(
        `${clip.id.padEnd(24)} ${String(count).padStart(5)} ${cell(0, 11)} ${cell(1, 12)} ${cell(2, 8)}  ${(counted[1]?.errors ?? 0) > 0 ? `"${texts[1]}"` : ''}`,
      );
    }
    const [before, served, accurate] = totals.map((t) => t / totalWords) as [number, number, number];
    console.log(
      `${'total'.padEnd(24)} ${String(totalWords).padStart(5)} ${pct(before).padStart(11)} ${pct(served).padStart(12)} ${pct(accurate).padStart(8)}`,
    );
    console.log(
      `default model (parla_stt_v1) on telephone speech: ${pct(served)}, target ≤ ${pct(TARGET.wer)} ${verdict(served <= TARGET.wer)}; against the baseline ${(served / Math.max(before, 1 / totalWords)).toFixed(2)}× (errors ${totals[1]} vs ${totals[0]}); parla_stt_accurate_v1 ${pct(accurate)} ${verdict(accurate <= TARGET.wer)}; wall ${walls.map((w) => `${w.toFixed(1)} s`).join(' / ')}`,
    );
  });
}

// ---------------------------------------------------------------------------------------------------
// Round trip: the TTS voices heard

interface RoundTripSubject {
  name: string;
  voice: EngineVoice;
  limit: number | undefined;
}

async function measureRoundTrip(scratch: string): Promise<void> {
  const subjects: RoundTripSubject[] = PREMADE_VOICES.filter(
    (v) => v.language === 'en' && v.primary.engine !== 'espeak',
  ).map((v) => ({
    name: v.name,
    voice: v.primary,
    limit:
      v.primary.engine === 'festival' && v.primary.voice === 'cmu_us_slt_arctic_hts'
        ? TARGET.roundtripBest
        : v.primary.engine === 'flite'
          ? TARGET.roundtripFlite
          : undefined,
  }));
  const sarah = PREMADE_VOICES.find((v) => v.name === 'Sarah');
  if (sarah) subjects.push({ name: 'Sarah (eSpeak)', voice: sarah.espeak, limit: undefined });
  console.log(
    `\n## Round trip: the five sentences (${words(SENTENCES).length} words) spoken by each English premade voice (engine pipeline, default settings), heard by both models`,
  );
  console.log(
    `${'voice'.padEnd(16)} ${'engine'.padEnd(34)} ${'fast'.padStart(6)} ${'accurate'.padStart(8)}  target (fast)`,
  );
  await withPool(POOL_SIZE, async (stt, pool) => {
    for (const subject of subjects) {
      const label = `${subject.name.padEnd(16)} ${`${subject.voice.engine} ${subject.voice.voice}`.padEnd(34)}`;
      // A loaded machine can push an engine past its time bound: that voice's row says so, the rest go on.
      const speech = await synthesizeSpeech(pool, {
        text: SENTENCES,
        voice: subject.voice,
        settings: { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: true },
        normalize: true,
      }).catch((error: Error) => {
        console.log(`${label} no speech: ${error.message}`);
        return undefined;
      });
      if (!speech) continue;
      const file = await writeWav(path.join(scratch, 'roundtrip.wav'), speech);
      const fast = wordErrorRate(SENTENCES, await hear(stt, file, 'fast', 'none'));
      const accurate = wordErrorRate(SENTENCES, await hear(stt, file, 'accurate', 'none'));
      console.log(
        `${label} ${pct(fast).padStart(6)} ${pct(accurate).padStart(8)}  ${
          subject.limit === undefined
            ? '(no target)'
            : `≤ ${pct(subject.limit)} ${verdict(fast <= subject.limit)}`
        }`,
      );
    }
  });
}

// ---------------------------------------------------------------------------------------------------
// Long recordings

interface LongRecording {
  file: string;
  reference: string;
  seconds: number;
  /** What the file is, for the printed lines. */
  label: string;
}

/**
 * The human clips in turn with PAUSE_SECS between, repeated until `seconds`, as MP3 (mono 22.05 kHz,
 * 48 kb/s), or (`telephone`) their telephone copies as an 8 kHz μ-law WAV; returns the file and the
 * reference text of what is said in it.
 */
async function longRecording(
  clips: readonly SpeechClip[],
  seconds: number,
  file: string,
  telephone = false,
): Promise<LongRecording> {
  const rate = telephone ? 8_000 : 16_000;
  const pause = new Int16Array(Math.round(PAUSE_SECS * rate));
  const parts: Int16Array[] = [];
  const said: string[] = [];
  let length = 0;
  while (length < seconds * rate) {
    for (const clip of clips) {
      const samples = telephone
        ? decodeSamples(telephoneClipPath(clip), rate)
        : readWav(clipPath(clip)).samples;
      parts.push(samples, pause);
      said.push(clip.reference);
      length += samples.length + pause.length;
      if (length >= seconds * rate) break;
    }
  }
  const samples = new Int16Array(length);
  let at = 0;
  for (const part of parts) {
    samples.set(part, at);
    at += part.length;
  }
  const wav = await writeWav(`${file}.pcm.wav`, { sampleRate: rate, samples });
  const encoding = telephone ? ['-c:a', 'pcm_mulaw', '-f', 'wav'] : ['-ar', '22050', '-b:a', '48k'];
  execFileSync('ffmpeg', ['-v', 'error', '-nostdin', '-i', wav, '-ac', '1', ...encoding, '-y', file]);
  fs.rmSync(wav);
  return {
    file,
    reference: said.join(' '),
    seconds: length / rate,
    label: telephone
      ? 'telephone: the telephone copies looped, 8 kHz G.711 μ-law WAV'
      : 'MP3 (the clips looped)',
  };
}

/** CPU seconds (user + system, reaped children included) of a process and its descendants so far. */
function cpuSeconds(pid: number): number {
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  let total = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, cutime, cstime: fields 14–17 of stat(5), 11–14 after the command name.
      total += [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i] ?? 0), 0);
    } catch {}
  }
  return total / ticks;
}

/**
 * The real-time factor `cpu` seconds of work on `seconds` of audio allow on two otherwise idle cores:
 * the load of the shared machine lengthens wall times, not the CPU the work takes.
 */
const idleRtf = (seconds: number, cpu: number) => seconds / (cpu / Math.min(2, os.cpus().length));

/** Duration of a media file (ffprobe). */
function mediaSeconds(file: string): number {
  return Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], {
      encoding: 'utf8',
    }).trim(),
  );
}

interface ApiAnswer {
  status: number;
  body: Buffer;
  wallSeconds: number;
}

/**
 * `POST /v1/speech-to-text` with a multipart body (`file`, `model_id`, `timestamps_granularity`), over
 * node:http (no client-side time limit: an hour of audio takes minutes).
 */
function postSpeechToText(server: Server, file: string): Promise<ApiAnswer> {
  const boundary = `----parla-bench-${Date.now().toString(16)}`;
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const body = Buffer.concat([
    field('model_id', 'scribe_v1'),
    field('timestamps_granularity', 'word'),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: ${file.endsWith('.wav') ? 'audio/wav' : 'audio/mpeg'}\r\n\r\n`,
    ),
    fs.readFileSync(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      `${server.url}/v1/speech-to-text`,
      {
        method: 'POST',
        headers: {
          'xi-api-key': server.apiKey,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            wallSeconds: (performance.now() - started) / 1000,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The public API's answer: its text and word count (the words[] entries of type word); undefined on an error. */
function readTranscript(answer: ApiAnswer): { text: string; words: number } | undefined {
  if (answer.status !== 200) {
    console.log(
      `POST /v1/speech-to-text answered HTTP ${answer.status} after ${answer.wallSeconds.toFixed(1)} s: ${answer.body.toString().slice(0, 300)} FAIL`,
    );
    return undefined;
  }
  const json = JSON.parse(answer.body.toString()) as { text?: string; words?: { type?: string }[] };
  return { text: json.text ?? '', words: (json.words ?? []).filter((w) => w.type === 'word').length };
}

interface ProviderRun {
  seconds: number;
  wallSeconds: number;
  cpuSeconds: number;
  text: string;
}

const RTF_HEADER = `${''.padEnd(34)} ${'wall s'.padStart(7)} ${'RTF'.padStart(6)} ${'WER'.padStart(6)} ${'CPU s'.padStart(6)} ${'idle RTF'.padStart(8)}`;

/** The baseline: the provider alone on the file, before the server starts (so nothing else runs). */
async function measureProviderRtf(recording: LongRecording): Promise<ProviderRun> {
  const seconds = mediaSeconds(recording.file);
  console.log(
    `\n## Real-time factor: a ${(seconds / 60).toFixed(1)}-minute ${recording.label} with ${PAUSE_SECS} s pauses, model scribe_v1 (the default, parla_stt_v1), word timestamps`,
  );
  console.log(
    `baseline: the provider alone on the same file (MoonshineStt.transcribeFile in the bench process, ${POOL_SIZE} engine processes, as the server's default), run before the server starts. CPU s: what the bench's (or the server's) processes spent, engine children and ffmpeg included; idle RTF: the audio over that CPU spread on ${Math.min(2, os.cpus().length)} cores`,
  );
  const run = await withPool(POOL_SIZE, async (stt) => {
    const cpu = cpuSeconds(process.pid);
    const started = performance.now();
    const text = await hear(stt, recording.file, 'fast', 'word');
    return {
      seconds,
      text,
      wallSeconds: (performance.now() - started) / 1000,
      cpuSeconds: cpuSeconds(process.pid) - cpu,
    };
  });
  console.log(RTF_HEADER);
  console.log(
    `${'provider alone'.padEnd(34)} ${run.wallSeconds.toFixed(1).padStart(7)} ${(seconds / run.wallSeconds).toFixed(1).padStart(6)} ${pct(wordErrorRate(spelledAlike(recording.reference), spelledAlike(run.text))).padStart(6)} ${run.cpuSeconds.toFixed(1).padStart(6)} ${idleRtf(seconds, run.cpuSeconds).toFixed(1).padStart(8)}`,
  );
  return run;
}

/** The same file through `POST /v1/speech-to-text` of the built server. */
async function measureApiRtf(server: Server, recording: LongRecording, provider: ProviderRun): Promise<void> {
  const cpu = cpuSeconds(server.pid);
  const answer = await postSpeechToText(server, recording.file);
  const used = cpuSeconds(server.pid) - cpu;
  const api = readTranscript(answer);
  if (!api) return;
  const rtf = provider.seconds / answer.wallSeconds;
  const idle = idleRtf(provider.seconds, used);
  console.log(`${recording.label}:`);
  console.log(RTF_HEADER);
  console.log(
    `${'POST /v1/speech-to-text'.padEnd(34)} ${answer.wallSeconds.toFixed(1).padStart(7)} ${rtf.toFixed(1).padStart(6)} ${pct(wordErrorRate(spelledAlike(recording.reference), spelledAlike(api.text))).padStart(6)} ${used.toFixed(1).padStart(6)} ${idle.toFixed(1).padStart(8)}  target RTF ≥ ${TARGET.rtf} ${verdict(rtf >= TARGET.rtf)} (idle ${verdict(idle >= TARGET.rtf)}); API/provider time ${(answer.wallSeconds / provider.wallSeconds).toFixed(2)}, CPU ${(used / provider.cpuSeconds).toFixed(2)}; ${api.words} words with times`,
  );
}

// ---------------------------------------------------------------------------------------------------
// Memory

interface MemorySample {
  server: number;
  children: number;
  count: number;
}

function sampleMemory(pid: number): MemorySample {
  const kids = descendants(pid);
  return { server: rssMb(pid), children: kids.reduce((n, k) => n + rssMb(k), 0), count: kids.length };
}

/** Samples every SAMPLE_EVERY_MS until `until` settles; returns the samples. */
async function sampleWhile(pid: number, until: Promise<unknown>): Promise<MemorySample[]> {
  const samples: MemorySample[] = [];
  let done = false;
  until.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  while (!done) {
    samples.push(sampleMemory(pid));
    await sleep(SAMPLE_EVERY_MS);
  }
  return samples;
}

const peak = (samples: MemorySample[], key: 'server' | 'children') =>
  samples.reduce((m, s) => Math.max(m, s[key]), 0);

async function measureMemory(server: Server, tenMinutes: string, scratch: string): Promise<void> {
  const hour = path.join(scratch, 'hour.mp3');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-nostdin',
    '-stream_loop',
    String(HOUR_LOOPS - 1),
    '-i',
    tenMinutes,
    '-c',
    'copy',
    '-y',
    hour,
  ]);
  const seconds = mediaSeconds(hour);
  console.log(
    `\n## Memory: resident set (VmRSS) sampled every ${SAMPLE_EVERY_MS} ms while POST /v1/speech-to-text transcribes a ${(seconds / 60).toFixed(0)}-minute MP3 (${(fs.statSync(hour).size / 1e6).toFixed(1)} MB; the 10-minute file looped ${HOUR_LOOPS}×), model scribe_v1, word timestamps`,
  );
  console.log('baseline: the idle server, sampled for 3 s before');
  const idle = await sampleWhile(server.pid, sleep(3000));
  const request = postSpeechToText(server, hour);
  const busy = await sampleWhile(server.pid, request);
  const answer = await request;
  const transcript = readTranscript(answer);
  const idleServer = peak(idle, 'server');
  const idleChildren = peak(idle, 'children');
  const busyServer = peak(busy, 'server');
  const busyChildren = peak(busy, 'children');
  const processes = busy.reduce((m, s) => Math.max(m, s.count), 0);
  console.log(
    `${''.padEnd(28)} ${'idle MB'.padStart(8)} ${'peak MB'.padStart(8)} ${'peak/idle'.padStart(9)}`,
  );
  console.log(
    `${'server process'.padEnd(28)} ${idleServer.toFixed(0).padStart(8)} ${busyServer.toFixed(0).padStart(8)} ${(busyServer / idleServer).toFixed(2).padStart(9)}  target < ${TARGET.serverRssMb} MB ${verdict(busyServer < TARGET.serverRssMb)}`,
  );
  console.log(
    `${`descendants (up to ${processes})`.padEnd(28)} ${idleChildren.toFixed(0).padStart(8)} ${busyChildren.toFixed(0).padStart(8)} ${(busyChildren / Math.max(1, idleChildren)).toFixed(2).padStart(9)}  (engine children, program hosts, ffmpeg: the sum of their RSS at each sample)`,
  );
  console.log(
    `${busy.length} samples; ${answer.wallSeconds.toFixed(1)} s (RTF ${(seconds / answer.wallSeconds).toFixed(1)}), ${transcript ? `${transcript.words} words with times` : 'no transcript'}`,
  );
}

// ---------------------------------------------------------------------------------------------------

export async function run(): Promise<void> {
  const asked = process.argv.slice(3).filter((a): a is Part => (PARTS as readonly string[]).includes(a));
  const parts = new Set<Part>(asked.length > 0 ? asked : PARTS);
  const clips = ensureSpeechClips();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-stt-bench-'));
  console.log(
    `${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the start; parts: ${[...parts].join(', ')}`,
  );
  try {
    if (parts.has('wer')) {
      await measureHumanWer(clips, scratch);
      await measureTelephoneWer(clips, scratch);
    }
    if (parts.has('roundtrip')) await measureRoundTrip(scratch);
    if (parts.has('rtf') || parts.has('memory')) {
      const recording = await longRecording(clips, TEN_MINUTES, path.join(scratch, 'ten-minutes.mp3'));
      const telephone = parts.has('rtf')
        ? await longRecording(clips, TEN_MINUTES, path.join(scratch, 'ten-minutes-telephone.wav'), true)
        : undefined;
      const provider = parts.has('rtf') ? await measureProviderRtf(recording) : undefined;
      const telephoneProvider = telephone ? await measureProviderRtf(telephone) : undefined;
      // BENCH_ENGINE_TIMEOUT_MS sets the server's ENGINE_TIMEOUT_MS (the engine pool's time bound, and how
      // long a call may wait for a free engine): a diagnosis knob; without it the server's default.
      const engineTimeout = process.env.BENCH_ENGINE_TIMEOUT_MS;
      console.log(
        `\nthe server: built and started as npm start runs it, ENGINE_TIMEOUT_MS ${engineTimeout ?? 'default (30000)'}`,
      );
      const server = await startParla(engineTimeout ? { env: { ENGINE_TIMEOUT_MS: engineTimeout } } : {});
      try {
        if (provider) await measureApiRtf(server, recording, provider);
        if (telephone && telephoneProvider) await measureApiRtf(server, telephone, telephoneProvider);
        if (parts.has('memory')) await measureMemory(server, recording.file, scratch);
      } finally {
        await server.stop();
      }
    }
    console.log(
      `\nload average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end`,
    );
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
