/*
 * An audiobook's downloads from its chapters' mastered WAV files (issue 30 item 2; docs/decisions/
 * 0025-studio.md, "Audiobook audio: ACX, normalisation and exports"): one mp3 per chapter, the whole book
 * as one mp3 or wav, a zip of the chapter mp3s, and an m4b with chapter marks and the book's metadata.
 * Paths in, a file out: ffmpeg reads the chapters from disk (its concat demuxer streams them one after
 * the other) and the zip is written as it is read, so memory stays bounded whatever the book's length.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Zip, ZipPassThrough } from 'fflate';
import { AppError } from '../errors';
import { withScratchDir } from '../scratch-dirs';
import { readWavInfo, type WavFileInfo } from './audiobook-audio';
import { runMediaTool } from './run-media-tool';

/** A chapter's audio: a mono 16-bit WAV on disk (masterChapterWav's output), and its title. */
export interface AudiobookChapterFile {
  file: string;
  title: string;
}

/** The book's metadata, written as tags into every export that holds tags (mp3's ID3v2, m4b's iTunes atoms). */
export interface AudiobookMetadata {
  title?: string;
  author?: string;
  /** The album tag; the title when absent (players group an audiobook's files by album). */
  album?: string;
  /** Genres, joined with "; " into the one genre tag; "Audiobook" when none. */
  genres?: readonly string[];
  /** The year or date of publication (`2026` or `2026-11-29`). */
  date?: string;
  description?: string;
  /** Written as its own `ISBN` tag (an ID3 TXXX frame; in m4b a free-form atom). */
  isbn?: string;
  /** ISO 639 language code (an ID3 TLAN frame; m4b's audio stream's language). */
  language?: string;
  /** A JPEG or PNG cover image: the m4b's and each mp3's attached picture. */
  coverFile?: string;
}

/** ACX: mp3 at 192 kb/s constant bit rate, 44.1 kHz. */
export const ACX_MP3_BITRATE = '192k';
export const ACX_MP3_RATE = 44_100;
/** m4b's AAC: 64 kb/s mono is transparent for speech and ~29 MB an hour. */
export const M4B_AAC_BITRATE = '64k';
/**
 * The rates m4b keeps as they are: the engines' own (Piper 22.05 kHz, Kokoro 24 kHz) carry nothing above
 * their Nyquist, so resampling to 44.1 kHz only doubled the encoder's work. Others go to 44.1 kHz.
 */
const M4B_RATES = new Set([22_050, 24_000, 32_000, 44_100, 48_000]);

/** A time bound for an ffmpeg run over `seconds` of audio: generous, as the machine may be busy. */
const boundFor = (seconds: number) => 60_000 + Math.ceil(seconds * 500);

async function ffmpeg(args: string[], seconds: number, what: string): Promise<void> {
  const result = await runMediaTool('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', ...args], {
    timeoutMs: boundFor(seconds),
  });
  if (result.exit.code === 0 && !result.timedOut) return;
  throw new AppError(
    result.timedOut ? 'service_unavailable' : 'internal_error',
    result.timedOut ? `Making the ${what} took too long.` : `Making the ${what} failed.`,
    { cause: new Error(result.exit.stderr.slice(0, 500)) },
  );
}

/** A value in an ffmetadata file: `=`, `;`, `#`, `\` and line breaks escaped with a backslash. */
export const ffmetadataValue = (value: string) => value.replace(/[=;#\\\n]/g, (c) => `\\${c}`);

/** A path in a concat demuxer list: single-quoted, a quote written as '\''. */
const concatPath = (file: string) => `file '${path.resolve(file).replace(/'/g, "'\\''")}'`;

/** The book's tags as ffmpeg `-metadata` arguments (the mp3 exports). */
function tagArgs(meta: AudiobookMetadata, extra: Record<string, string> = {}): string[] {
  const tags: Record<string, string | undefined> = {
    album: meta.album ?? meta.title,
    artist: meta.author,
    album_artist: meta.author,
    genre: meta.genres?.length ? meta.genres.join('; ') : 'Audiobook',
    date: meta.date,
    comment: meta.description,
    ISBN: meta.isbn,
    language: meta.language,
    ...extra,
  };
  return Object.entries(tags).flatMap(([key, value]) =>
    value === undefined || value === '' ? [] : ['-metadata', `${key}=${value.replace(/\r?\n/g, ' ')}`],
  );
}

/** The chapters' WAV headers, checked to be one format (the concat demuxer joins them as they are). */
async function chapterInfos(chapters: readonly AudiobookChapterFile[]): Promise<WavFileInfo[]> {
  if (chapters.length === 0)
    throw new AppError('invalid_request', 'The book has no chapter audio to export.');
  const infos = await Promise.all(chapters.map((c) => readWavInfo(c.file)));
  const first = infos[0] as WavFileInfo;
  for (const [i, info] of infos.entries()) {
    if (info.channels !== 1 || info.sampleRate !== first.sampleRate)
      throw new AppError(
        'invalid_request',
        `Chapter ${i + 1}'s audio is ${info.channels} channel(s) at ${info.sampleRate} Hz; every chapter must be mono at ${first.sampleRate} Hz.`,
      );
  }
  return infos;
}

const totalSeconds = (infos: readonly WavFileInfo[]) =>
  infos.reduce((s, i) => s + i.sampleCount / i.sampleRate, 0);

/** Cover image inputs and maps: the picture as the file's attached picture (mjpeg/png copied as is). */
function coverArgs(meta: AudiobookMetadata, inputIndex: number) {
  if (!meta.coverFile) return { inputs: [] as string[], maps: [] as string[] };
  return {
    inputs: ['-i', meta.coverFile],
    maps: ['-map', `${inputIndex}:v:0`, '-c:v', 'copy', '-disposition:v:0', 'attached_pic'],
  };
}

/**
 * One chapter as an ACX mp3: 192 kb/s CBR, 44.1 kHz, mono, with the book's tags, the chapter's title and
 * its track number (`n/total`), and the cover when given.
 */
export async function exportChapterMp3(
  chapter: AudiobookChapterFile,
  out: string,
  meta: AudiobookMetadata,
  track: { number: number; total: number },
): Promise<void> {
  const [info] = await chapterInfos([chapter]);
  const cover = coverArgs(meta, 1);
  await ffmpeg(
    [
      '-f',
      'wav',
      '-i',
      chapter.file,
      ...cover.inputs,
      '-map',
      '0:a:0',
      ...cover.maps,
      '-c:a',
      'libmp3lame',
      '-b:a',
      ACX_MP3_BITRATE,
      '-ar',
      String(ACX_MP3_RATE),
      '-ac',
      '1',
      ...tagArgs(meta, { title: chapter.title, track: `${track.number}/${track.total}` }),
      '-id3v2_version',
      '3',
      '-f',
      'mp3',
      '-y',
      out,
    ],
    totalSeconds([info as WavFileInfo]),
    'chapter mp3',
  );
}

/** Every chapter as an ACX mp3 in `dir`, named `01 - Title.mp3`; returns the files in order. */
export async function exportChapterMp3s(
  chapters: readonly AudiobookChapterFile[],
  dir: string,
  meta: AudiobookMetadata,
): Promise<string[]> {
  const width = Math.max(2, String(chapters.length).length);
  const files: string[] = [];
  for (const [i, chapter] of chapters.entries()) {
    const file = path.join(dir, `${String(i + 1).padStart(width, '0')} - ${safeFileName(chapter.title)}.mp3`);
    await exportChapterMp3(chapter, file, meta, { number: i + 1, total: chapters.length });
    files.push(file);
  }
  return files;
}

/** A title as a file name: no path separators or characters Windows refuses, at most 80 characters. */
export const safeFileName = (title: string) =>
  title
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80) || 'chapter';

/**
 * The whole book as one file: `mp3` (ACX's 192 kb/s CBR at 44.1 kHz) or `wav` (the chapters' PCM as
 * it is). The chapters are joined by ffmpeg's concat demuxer, which reads one file after the other.
 */
export async function exportBookAudio(
  kind: 'mp3' | 'wav',
  chapters: readonly AudiobookChapterFile[],
  out: string,
  meta: AudiobookMetadata,
): Promise<void> {
  const infos = await chapterInfos(chapters);
  await withScratchDir('audiobook-', async (dir) => {
    const list = path.join(dir, 'chapters.txt');
    await fs.writeFile(list, `${chapters.map((c) => concatPath(c.file)).join('\n')}\n`);
    const codec =
      kind === 'mp3'
        ? [
            '-c:a',
            'libmp3lame',
            '-b:a',
            ACX_MP3_BITRATE,
            '-ar',
            String(ACX_MP3_RATE),
            '-ac',
            '1',
            '-id3v2_version',
            '3',
            '-f',
            'mp3',
          ]
        : ['-c:a', 'pcm_s16le', '-f', 'wav'];
    const tags = kind === 'mp3' ? tagArgs(meta, meta.title ? { title: meta.title } : {}) : [];
    await ffmpeg(
      ['-f', 'concat', '-safe', '0', '-i', list, '-map', '0:a', ...codec, ...tags, '-y', out],
      totalSeconds(infos),
      `book ${kind}`,
    );
  });
}

/** Where each chapter starts and ends in the joined book, from the chapters' sample counts (exact). */
export function chapterMarks(
  chapters: readonly { title: string; sampleCount: number }[],
): { title: string; start: number; end: number }[] {
  let at = 0;
  return chapters.map((c) => {
    const mark = { title: c.title, start: at, end: at + c.sampleCount };
    at += c.sampleCount;
    return mark;
  });
}

/** The ffmetadata file of an m4b: the book's tags, then one [CHAPTER] per chapter in samples. */
export function m4bMetadata(
  meta: AudiobookMetadata,
  chapters: readonly { title: string; sampleCount: number }[],
  sampleRate: number,
): string {
  const tags: [string, string | undefined][] = [
    ['title', meta.title],
    ['artist', meta.author],
    ['album_artist', meta.author],
    ['album', meta.album ?? meta.title],
    ['genre', meta.genres?.length ? meta.genres.join('; ') : 'Audiobook'],
    ['date', meta.date],
    ['comment', meta.description],
    ['description', meta.description],
  ];
  const lines = [';FFMETADATA1'];
  for (const [key, value] of tags) if (value) lines.push(`${key}=${ffmetadataValue(value)}`);
  for (const mark of chapterMarks(chapters)) {
    // The time base is the sample rate: the marks are the exact sample counts, no rounding here.
    lines.push('', '[CHAPTER]', `TIMEBASE=1/${sampleRate}`, `START=${mark.start}`, `END=${mark.end}`);
    lines.push(`title=${ffmetadataValue(mark.title)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The book as an m4b: AAC in MP4 of the iTunes audiobook flavour (ffmpeg's `ipod` muxer, brand M4B),
 * with one chapter mark per chapter where its audio starts and ends (from the sample counts), the book's
 * metadata as iTunes tags, the cover as the attached picture (`covr`), and the ISBN as a free-form iTunes
 * tag (`----:com.apple.iTunes:ISBN`, added by addMp4FreeformTag: Debian's ffmpeg 5.1 writes only iTunes's
 * fixed tags, and its `use_metadata_tags` would write every tag as QuickTime `mdta` keys instead, which
 * audiobook players do not read, and drops the cover). No `+faststart`: the index (moov) stays at the
 * end, where the tag can be added without moving the audio; a download does not need it first.
 */
export async function exportM4b(
  chapters: readonly AudiobookChapterFile[],
  out: string,
  meta: AudiobookMetadata,
): Promise<void> {
  const infos = await chapterInfos(chapters);
  const rate = (infos[0] as WavFileInfo).sampleRate;
  await withScratchDir('audiobook-', async (dir) => {
    const list = path.join(dir, 'chapters.txt');
    const metadata = path.join(dir, 'metadata.txt');
    await fs.writeFile(list, `${chapters.map((c) => concatPath(c.file)).join('\n')}\n`);
    await fs.writeFile(
      metadata,
      m4bMetadata(
        meta,
        chapters.map((c, i) => ({ title: c.title, sampleCount: (infos[i] as WavFileInfo).sampleCount })),
        rate,
      ),
    );
    const cover = coverArgs(meta, 2);
    await ffmpeg(
      [
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        list,
        '-f',
        'ffmetadata',
        '-i',
        metadata,
        ...cover.inputs,
        '-map',
        '0:a',
        ...cover.maps,
        '-map_metadata',
        '1',
        '-map_chapters',
        '1',
        '-c:a',
        'aac',
        // ffmpeg's fast AAC coder: 3× less CPU than its default (twoloop) for 6 min of 22.05 kHz audio
        // (0.60 against 1.70 CPU-s with the resampling to 44.1 kHz; docs/decisions/0025-studio.md).
        '-aac_coder',
        'fast',
        '-b:a',
        M4B_AAC_BITRATE,
        '-ar',
        String(M4B_RATES.has(rate) ? rate : ACX_MP3_RATE),
        '-ac',
        '1',
        ...(meta.language ? ['-metadata:s:a:0', `language=${meta.language}`] : []),
        '-brand',
        'M4B ',
        '-f',
        'ipod',
        '-y',
        out,
      ],
      totalSeconds(infos) * 2,
      'm4b',
    );
  });
  if (meta.isbn) await addMp4FreeformTag(out, 'ISBN', meta.isbn);
}

const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const fullBox = (type: string, ...parts: Buffer[]) => box(type, Buffer.alloc(4), ...parts);

/** An MP4 box's header: its type, its whole size, where its body starts (after a 64-bit size if any). */
function boxAt(buf: Buffer, at: number): { type: string; size: number; body: number } {
  let size = buf.readUInt32BE(at);
  let body = at + 8;
  if (size === 1) {
    size = Number(buf.readBigUInt64BE(at + 8));
    body += 8;
  } else if (size === 0) size = buf.length - at;
  return { type: buf.toString('latin1', at + 4, at + 8), size, body };
}

/**
 * Adds a free-form iTunes tag (`----` with mean `com.apple.iTunes`, the name, and UTF-8 data) to an MP4
 * file's `moov/udta/meta/ilst`, as iTunes and audiobook players (and ffprobe) read an ISBN. The file's
 * moov must be its last box (no faststart): only moov grows, the audio before it stays where it is, so
 * no chunk offset changes. The boxes on the way (moov, udta, meta, ilst) get their sizes raised.
 */
export async function addMp4FreeformTag(file: string, name: string, value: string): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    const { size: fileSize } = await handle.stat();
    // Walk the top-level boxes by their headers (the audio is not read) to the last one: moov.
    let at = 0;
    let moov: { at: number; size: number } | undefined;
    const head = Buffer.alloc(16);
    while (at + 8 <= fileSize) {
      await handle.read(head, 0, 16, at);
      const { type, size } = boxAt(head, 0);
      if (size < 8) break;
      if (type === 'moov') moov = { at, size };
      at += size;
    }
    if (!moov || moov.at + moov.size !== fileSize)
      throw new Error('the MP4 file does not end with its moov box');
    const buf = Buffer.alloc(moov.size);
    await handle.read(buf, 0, moov.size, moov.at);
    // The path to ilst: moov › udta › meta (a full box: 4 bytes of version and flags first) › ilst.
    const path: number[] = [0];
    let insideAt = 0;
    let inside = boxAt(buf, 0);
    for (const want of ['udta', 'meta', 'ilst']) {
      let child = inside.body + (inside.type === 'meta' ? 4 : 0);
      let found: number | undefined;
      while (child + 8 <= insideAt + inside.size) {
        const b = boxAt(buf, child);
        if (b.type === want) {
          found = child;
          break;
        }
        child += b.size;
      }
      if (found === undefined) throw new Error(`the MP4 file has no ${want} box`);
      path.push(found);
      insideAt = found;
      inside = boxAt(buf, found);
    }
    for (const offset of path) if (buf.readUInt32BE(offset) === 1) throw new Error('64-bit box sizes');
    const data = box('data', Buffer.from([0, 0, 0, 1, 0, 0, 0, 0]), Buffer.from(value, 'utf8'));
    const tag = box(
      '----',
      fullBox('mean', Buffer.from('com.apple.iTunes', 'latin1')),
      fullBox('name', Buffer.from(name, 'utf8')),
      data,
    );
    const ilstEnd = insideAt + inside.size;
    const grown = Buffer.concat([buf.subarray(0, ilstEnd), tag, buf.subarray(ilstEnd)]);
    for (const offset of path) grown.writeUInt32BE(grown.readUInt32BE(offset) + tag.length, offset);
    await handle.write(grown, 0, grown.length, moov.at);
  } catch (error) {
    throw new AppError('internal_error', 'Writing the audiobook’s ISBN tag failed.', { cause: error });
  } finally {
    await handle.close();
  }
}

/**
 * A zip of files (the chapter mp3s), written as it is read: each file goes in stored, not deflated (mp3
 * does not compress), through fflate's streaming Zip, a chunk at a time, each written to disk before the
 * next is read.
 */
export async function zipFiles(files: readonly { name: string; file: string }[], out: string): Promise<void> {
  const handle = await fs.open(out, 'w', 0o600);
  let writing: Promise<unknown> = Promise.resolve();
  let failure: Error | undefined;
  try {
    const zip = new Zip((error, data) => {
      if (error) failure = error;
      else {
        const copy = Buffer.from(data);
        writing = writing.then(() => handle.write(copy));
      }
    });
    const buffer = Buffer.alloc(256 * 1024);
    for (const entry of files) {
      const item = new ZipPassThrough(entry.name);
      zip.add(item);
      const source = await fs.open(entry.file, 'r');
      try {
        for (;;) {
          const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
          item.push(buffer.subarray(0, bytesRead), bytesRead === 0);
          await writing;
          if (bytesRead === 0) break;
        }
      } finally {
        await source.close();
      }
    }
    zip.end();
    await writing;
    if (failure) throw failure;
  } finally {
    await handle.close();
  }
}
