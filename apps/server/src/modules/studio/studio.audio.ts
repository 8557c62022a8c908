import { createReadStream } from 'node:fs';
import path from 'node:path';
import { AcxMeter, type AcxReport, acxReport, chapterPadding } from '@parla/audio';
import type { QualityPreset } from '@parla/contracts';
import { AppError } from '../../platform/errors';
import { masterChapterWav, WavFileWriter } from '../../platform/media/audiobook-audio';
import { runMediaTool } from '../../platform/media/run-media-tool';

/*
 * A converted chapter's audio (issue 30 item 2; decision 25 "Studio projects"): its blocks are written to
 * a WAV file on disk as they are read from storage (never the whole chapter in memory), then — when the
 * project asks for volume normalisation — mastered with the platform's audiobook functions (room tone at
 * the head, the tail and in the pauses, gain into ACX's window and the look-ahead limiter), measured
 * before and after, and encoded to the snapshot's mp3 from the file. The chapter's WAV (what the exports
 * are made from: no second lossy generation) and its ACX report are kept next to the snapshot's mp3.
 */

/** The rate every chapter is assembled at (the MPEG encodings are 44.1 kHz; the exports check one rate). */
export const CHAPTER_RATE = 44_100;

/** The snapshot mp3's bit rate per quality preset. */
const MP3_BITRATE: Record<QualityPreset, string> = {
  standard: '128k',
  high: '192k',
  ultra: '192k',
  ultra_lossless: '192k',
};

/** A chapter's ACX report as stored (GET …/chapters/{id}/acx answers it). */
export interface StoredAcxReport {
  /** Before mastering: the chapter as assembled (equal to `after` when not normalised). */
  before: AcxReport;
  after: AcxReport;
  normalized: boolean;
  gain_db: number;
  limiter_db: number;
}

/** The chapter's lossless audio and its ACX report, kept beside the snapshot's mp3 (same name). */
export const snapshotWavKey = (audioKey: string) => audioKey.replace(/\.mp3$/, '.wav');
export const snapshotAcxKey = (audioKey: string) => audioKey.replace(/\.mp3$/, '.acx.json');

/** The raw chapter being written: samples go to disk as they come and are measured on the way. */
export class ChapterWriter {
  private readonly meter = new AcxMeter(CHAPTER_RATE);
  private constructor(
    readonly file: string,
    private readonly writer: WavFileWriter,
  ) {}

  static async create(dir: string): Promise<ChapterWriter> {
    const file = path.join(dir, 'chapter.raw.wav');
    return new ChapterWriter(file, await WavFileWriter.create(file, CHAPTER_RATE));
  }

  async write(samples: Int16Array): Promise<void> {
    this.meter.push(samples);
    await this.writer.write(samples);
  }

  get sampleCount(): number {
    return this.writer.sampleCount;
  }

  async close(): Promise<AcxReport> {
    await this.writer.close();
    return acxReport(this.meter.result());
  }
}

export interface FinishedChapter {
  /** The WAV to keep (mastered, or the raw one). */
  wavFile: string;
  mp3File: string;
  durationSecs: number;
  /** Seconds the speech was moved by (the head's room tone when mastered). */
  offsetSecs: number;
  report: StoredAcxReport;
}

/**
 * Masters the raw chapter when `normalize` (the project's `volume_normalization` or
 * `acx_volume_normalization`) and encodes the result to mp3. The room tone's seed is fixed so that a
 * reconversion of the same chapter gives the same bytes.
 */
export async function finishChapter(
  dir: string,
  raw: ChapterWriter,
  options: { normalize: boolean; preset: QualityPreset },
): Promise<FinishedChapter> {
  const measured = await raw.close();
  let wavFile = raw.file;
  let sampleCount = raw.sampleCount;
  let offsetSecs = 0;
  let report: StoredAcxReport = {
    before: measured,
    after: measured,
    normalized: false,
    gain_db: 0,
    limiter_db: 0,
  };
  if (options.normalize) {
    wavFile = path.join(dir, 'chapter.wav');
    const mastered = await masterChapterWav(raw.file, wavFile, { normalize: true, seed: 1 });
    sampleCount = mastered.sampleCount;
    offsetSecs = chapterPadding().leadSec;
    report = {
      before: mastered.before,
      after: mastered.after,
      normalized: true,
      gain_db: mastered.gainDb,
      limiter_db: mastered.limiterDb,
    };
  }
  const durationSecs = sampleCount / CHAPTER_RATE;
  const mp3File = path.join(dir, 'chapter.mp3');
  const result = await runMediaTool(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-f',
      'wav',
      '-i',
      wavFile,
      '-c:a',
      'libmp3lame',
      '-b:a',
      MP3_BITRATE[options.preset],
      '-ar',
      String(CHAPTER_RATE),
      '-ac',
      '1',
      '-f',
      'mp3',
      '-y',
      mp3File,
    ],
    { timeoutMs: 60_000 + Math.ceil(durationSecs * 500) },
  );
  if (result.exit.code !== 0 || result.timedOut)
    throw new AppError('internal_error', 'Encoding a chapter’s audio failed.', {
      cause: new Error(result.exit.stderr.slice(0, 500)),
    });
  return { wavFile, mp3File, durationSecs, offsetSecs, report };
}

/** A file on disk as a stream for storage.put (read as it is written, never whole in memory). */
export const fileStream = (file: string) => createReadStream(file);
