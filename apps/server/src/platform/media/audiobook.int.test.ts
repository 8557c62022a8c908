// @postgres-leg skip: ffmpeg and ffprobe only, no database work.
/*
 * The audiobook audio functions against the real ffmpeg and ffprobe (issue 30 item 2): ACX mastering
 * measured as ffmpeg's astats measures it, and the exports (chapter mp3s, book mp3/wav, zip, m4b with
 * chapter marks and metadata). Seconds of audio, not minutes.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { seededRandom } from '@parla/audio';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { type MasteredChapter, masterChapterWav, readWavInfo, WavFileWriter } from './audiobook-audio';
import {
  type AudiobookChapterFile,
  type AudiobookMetadata,
  exportBookAudio,
  exportChapterMp3s,
  exportM4b,
  zipFiles,
} from './audiobook-export';
import { runMediaTool } from './run-media-tool';

const RATE = 22_050;
let dir: string;

/**
 * Speech-like audio (a 120 Hz buzz whose loudness follows 4 Hz syllables) at `level` (linear), phrases
 * of 1.2 s between 0.6 s pauses of digital silence — as an engine's sentences joined with pauses — in a
 * WAV written chunk by chunk, the way a conversion writes a chapter.
 */
async function chapterWav(file: string, seconds: number, level: number, seed: number): Promise<void> {
  const writer = await WavFileWriter.create(file, RATE);
  const random = seededRandom(seed);
  const chunk = new Int16Array(4096);
  for (let at = 0; at < seconds * RATE; at += chunk.length) {
    const n = Math.min(chunk.length, Math.round(seconds * RATE) - at);
    for (let i = 0; i < n; i += 1) {
      const t = (at + i) / RATE;
      const syllable = t % 1.8 < 1.2 ? Math.max(0, Math.sin(Math.PI * 4 * (t % 1.8))) ** 2 : 0;
      let buzz = 0;
      for (let h = 1; h <= 6; h += 1) buzz += Math.sin(2 * Math.PI * 120 * h * t) / h;
      chunk[i] = Math.round((buzz + (random() - 0.5) * 0.1) * syllable * level * 32767);
    }
    await writer.write(chunk.subarray(0, n));
  }
  await writer.close();
}

async function probe(file: string, entries: string[]): Promise<Record<string, unknown>> {
  const { stdout, exit } = await runMediaTool('ffprobe', ['-v', 'error', ...entries, '-of', 'json', file], {
    timeoutMs: 30_000,
  });
  expect(exit.code).toBe(0);
  return JSON.parse(stdout.toString()) as Record<string, unknown>;
}

/** ffmpeg's astats over a whole file (Overall RMS and peak level), and the quietest aligned 0.5 s window. */
async function astats(file: string): Promise<{ rms: number; peak: number; floor: number }> {
  const last = async (filter: string, key: string, all = false) => {
    const { stdout, exit } = await runMediaTool(
      'ffmpeg',
      ['-v', 'error', '-i', file, '-af', filter, '-f', 'null', '-'],
      { timeoutMs: 30_000 },
    );
    expect(exit.code).toBe(0);
    const values = [
      ...stdout.toString().matchAll(new RegExp(`${key.replace(/\./g, '\\.')}=(\\S+)`, 'g')),
    ].map((m) => Number(m[1]));
    return all ? Math.min(...values) : (values.at(-1) as number);
  };
  const overall = 'astats=metadata=1:measure_perchannel=none';
  return {
    rms: await last(
      `${overall},ametadata=print:key=lavfi.astats.Overall.RMS_level:file=-`,
      'lavfi.astats.Overall.RMS_level',
    ),
    peak: await last(
      `${overall},ametadata=print:key=lavfi.astats.Overall.Peak_level:file=-`,
      'lavfi.astats.Overall.Peak_level',
    ),
    floor: await last(
      `asetnsamples=n=${RATE / 2}:p=0,astats=metadata=1:reset=1:measure_perchannel=none,ametadata=print:key=lavfi.astats.Overall.RMS_level:file=-`,
      'lavfi.astats.Overall.RMS_level',
      true,
    ),
  };
}

const TITLES = ['Chapter One: The Cliff', 'Chapter Two; the Keeper = #2', "Chapter Three — Nobody's Light"];
const META: AudiobookMetadata = {
  title: 'The Lighthouse',
  author: 'A. Writer',
  genres: ['Fiction', 'Mystery'],
  date: '2026',
  description: 'A keeper, a lamp and a hundred winters.',
  isbn: '978-0-00-000000-0',
  language: 'eng',
};
let chapters: AudiobookChapterFile[];
let mastered: MasteredChapter[];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-audiobook-test-'));
  mastered = [];
  chapters = [];
  for (const [i, title] of TITLES.entries()) {
    const raw = path.join(dir, `raw-${i}.wav`);
    // Too quiet for ACX (the first two) and too loud (the third).
    await chapterWav(raw, 3 + i, [0.02, 0.04, 0.9][i] as number, i + 1);
    const file = path.join(dir, `chapter-${i}.wav`);
    mastered.push(
      await masterChapterWav(raw, file, { normalize: true, seed: i + 1, leadSec: 0.5, tailSec: 1 }),
    );
    chapters.push({ file, title });
  }
  const cover = await runMediaTool(
    'ffmpeg',
    [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=navy:s=64x64',
      '-frames:v',
      '1',
      '-y',
      path.join(dir, 'cover.jpg'),
    ],
    { timeoutMs: 30_000 },
  );
  expect(cover.exit.code).toBe(0);
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('masterChapterWav', () => {
  it('brings each chapter into the ACX window, with room tone at its ends, and says before/after', async () => {
    for (const [i, m] of mastered.entries()) {
      expect(m.before.pass).toBe(false);
      expect(m.after).toMatchObject({ pass: true, passes: { rms: true, peak: true, noise_floor: true } });
      // Room tone, not digital silence, is the quietest window.
      expect(m.after.noise_floor_db).toBeGreaterThan(-80);
      const info = await readWavInfo(chapters[i]?.file as string);
      expect(info.sampleCount).toBe(m.sampleCount);
      expect(m.sampleCount).toBe(Math.round((3 + i + 1.5) * RATE));
    }
    expect(mastered[2]?.gainDb).toBeLessThan(0);
    expect(mastered[0]?.gainDb).toBeGreaterThan(10);
  });

  it('measures as ffmpeg astats does (RMS, peak; the quietest 0.5 s window as the noise floor)', async () => {
    const file = chapters[1]?.file as string;
    const ours = mastered[1]?.after;
    const theirs = await astats(file);
    expect(ours?.rms_db).toBeCloseTo(theirs.rms, 1);
    expect(ours?.peak_db).toBeCloseTo(theirs.peak, 1);
    expect(ours?.noise_floor_db).toBeCloseTo(theirs.floor, 1);
  });

  it('keeps the level without normalisation, and refuses what is not a mono WAV', async () => {
    const raw = path.join(dir, 'raw-0.wav');
    const plain = await masterChapterWav(raw, path.join(dir, 'plain.wav'), { normalize: false, seed: 1 });
    expect(plain.gainDb).toBe(0);
    expect(plain.after.rms_db).toBeCloseTo(plain.before.rms_db, 1);
    const bogus = path.join(dir, 'bogus.wav');
    await fs.writeFile(bogus, 'not a wav at all, just text');
    await expect(masterChapterWav(bogus, path.join(dir, 'x.wav'), { normalize: true })).rejects.toThrow(
      AppError,
    );
    await expect(
      masterChapterWav(raw, path.join(dir, 'x.wav'), { normalize: true, tailSec: 9 }),
    ).rejects.toThrow(/tail/);
  });
});

describe('audiobook exports', () => {
  it('makes an m4b with a chapter mark per chapter, the book’s tags and the cover', async () => {
    const out = path.join(dir, 'book.m4b');
    await exportM4b(chapters, out, { ...META, coverFile: path.join(dir, 'cover.jpg') });
    const info = (await probe(out, ['-show_chapters', '-show_format', '-show_streams'])) as {
      chapters: { start_time: string; end_time: string; tags: { title: string } }[];
      format: { tags: Record<string, string>; duration: string };
      streams: { codec_type: string; codec_name: string; disposition: { attached_pic: number } }[];
    };
    expect(info.chapters.map((c) => c.tags.title)).toEqual(TITLES);
    let at = 0;
    for (const [i, chapter] of info.chapters.entries()) {
      const seconds = (mastered[i]?.sampleCount as number) / RATE;
      expect(Math.abs(Number(chapter.start_time) - at)).toBeLessThanOrEqual(0.001);
      expect(Math.abs(Number(chapter.end_time) - (at + seconds))).toBeLessThanOrEqual(0.001);
      at += seconds;
    }
    expect(Number(info.format.duration)).toBeCloseTo(at, 1);
    expect(info.format.tags).toMatchObject({
      major_brand: 'M4B ',
      title: 'The Lighthouse',
      artist: 'A. Writer',
      album: 'The Lighthouse',
      genre: 'Fiction; Mystery',
      date: '2026',
      comment: META.description,
      ISBN: META.isbn,
    });
    expect(info.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(info.streams.find((s) => s.codec_type === 'video')?.disposition.attached_pic).toBe(1);
  });

  it('makes an ACX mp3 per chapter (192 kb/s CBR, 44.1 kHz, tagged) and zips them', async () => {
    const mp3Dir = path.join(dir, 'mp3');
    await fs.mkdir(mp3Dir);
    const files = await exportChapterMp3s(chapters, mp3Dir, {
      ...META,
      coverFile: path.join(dir, 'cover.jpg'),
    });
    expect(files.map((f) => path.basename(f))).toEqual([
      '01 - Chapter One The Cliff.mp3',
      '02 - Chapter Two; the Keeper = #2.mp3',
      "03 - Chapter Three — Nobody's Light.mp3",
    ]);
    const info = (await probe(files[1] as string, ['-show_format', '-show_streams'])) as {
      format: { tags: Record<string, string> };
      streams: {
        codec_name: string;
        sample_rate: string;
        bit_rate: string;
        disposition: { attached_pic: number };
      }[];
    };
    expect(info.streams[0]).toMatchObject({ codec_name: 'mp3', sample_rate: '44100', bit_rate: '192000' });
    expect(info.streams[1]?.disposition.attached_pic).toBe(1);
    expect(info.format.tags).toMatchObject({
      title: TITLES[1],
      track: '2/3',
      album: 'The Lighthouse',
      ISBN: META.isbn,
    });

    const zip = path.join(dir, 'chapters.zip');
    await zipFiles(
      files.map((file) => ({ name: path.basename(file), file })),
      zip,
    );
    const entries = unzipSync(await fs.readFile(zip));
    expect(Object.keys(entries)).toEqual(files.map((f) => path.basename(f)));
    expect(Buffer.from(entries[path.basename(files[0] as string)] as Uint8Array)).toEqual(
      await fs.readFile(files[0] as string),
    );
  });

  it('makes the whole book as one mp3 and as one wav', async () => {
    const total = mastered.reduce((s, m) => s + m.sampleCount, 0);
    const wav = path.join(dir, 'book.wav');
    await exportBookAudio('wav', chapters, wav, META);
    expect((await readWavInfo(wav)).sampleCount).toBe(total);
    const mp3 = path.join(dir, 'book.mp3');
    await exportBookAudio('mp3', chapters, mp3, META);
    const info = (await probe(mp3, ['-show_format', '-show_streams'])) as {
      format: { duration: string; tags: Record<string, string> };
      streams: { bit_rate: string }[];
    };
    expect(info.streams[0]?.bit_rate).toBe('192000');
    expect(Number(info.format.duration)).toBeCloseTo(total / RATE, 1);
    expect(info.format.tags.title).toBe('The Lighthouse');
  });

  it('refuses chapters of different rates or none, with a clear error', async () => {
    const other = path.join(dir, 'other-rate.wav');
    const writer = await WavFileWriter.create(other, 16_000);
    await writer.write(new Int16Array(1600));
    await writer.close();
    await expect(
      exportM4b([...chapters, { file: other, title: 'Odd' }], path.join(dir, 'x.m4b'), META),
    ).rejects.toThrow(/Chapter 4's audio is 1 channel\(s\) at 16000 Hz/);
    await expect(exportBookAudio('mp3', [], path.join(dir, 'x.mp3'), META)).rejects.toThrow(
      /no chapter audio/,
    );
  });
});
