/*
 * A chapter's audio on disk, mastered for an audiobook (issue 30 item 2; docs/decisions/0025-studio.md,
 * "Audiobook audio: ACX, normalisation and exports"): written as it is synthesised (WavFileWriter), then
 * padded and gapped with room tone, normalised into ACX's window and measured before and after
 * (masterChapterWav). Mono 16-bit WAV files, read and written in chunks: memory stays at a few chunks
 * whatever the chapter's length. The DSP itself is @parla/audio's (acx.ts).
 */
import fs from 'node:fs/promises';
import {
  AcxMeter,
  type AcxReport,
  acxReport,
  chapterPadding,
  DigitalSilenceFiller,
  normalizationGainDb,
  PeakLimiter,
  RoomTone,
} from '@parla/audio';
import { AppError } from '../errors';

/** The bytes a chapter file is read in: 64 K samples (~3 s at 22.05 kHz). */
const CHUNK_BYTES = 128 * 1024;
const HEADER_BYTES = 44;

/** Where a mono 16-bit WAV file's samples are, and how many there are (exact: chapter marks count them). */
export interface WavFileInfo {
  sampleRate: number;
  channels: number;
  /** Samples per channel. */
  sampleCount: number;
  /** Where the data chunk's samples start in the file. */
  dataOffset: number;
}

const notWav = (file: string, why: string) =>
  new AppError('invalid_request', `The chapter audio is not a 16-bit PCM WAV file (${why}).`, {
    cause: new Error(file),
  });

/**
 * Reads a 16-bit PCM WAV file's header (walking its chunks, as parseWav does) without reading its
 * samples. A data size of 0 or past the end (a writer that never finished) means "to the end of the file".
 */
export async function readWavInfo(file: string): Promise<WavFileInfo> {
  const handle = await fs.open(file, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const head = Buffer.alloc(12);
    await handle.read(head, 0, 12, 0);
    if (head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE')
      throw notWav(file, 'no RIFF/WAVE header');
    let offset = 12;
    let format: { tag: number; channels: number; sampleRate: number; bits: number } | undefined;
    const chunk = Buffer.alloc(24);
    while (offset + 8 <= fileSize) {
      await handle.read(chunk, 0, 24, offset);
      const id = chunk.toString('ascii', 0, 4);
      const size = chunk.readUInt32LE(4);
      if (id === 'fmt ') {
        format = {
          tag: chunk.readUInt16LE(8),
          channels: chunk.readUInt16LE(10),
          sampleRate: chunk.readUInt32LE(12),
          bits: chunk.readUInt16LE(22),
        };
      } else if (id === 'data') {
        if (!format) throw notWav(file, 'data before format');
        if ((format.tag !== 1 && format.tag !== 0xfffe) || format.bits !== 16 || format.channels < 1)
          throw notWav(file, `format ${format.tag}, ${format.bits} bits`);
        const body = offset + 8;
        const bytes = size === 0 || body + size > fileSize ? fileSize - body : size;
        const frame = 2 * format.channels;
        return {
          sampleRate: format.sampleRate,
          channels: format.channels,
          sampleCount: Math.floor(bytes / frame),
          dataOffset: body,
        };
      }
      offset += 8 + size + (size % 2);
    }
    throw notWav(file, 'no data chunk');
  } finally {
    await handle.close();
  }
}

/** The canonical 44-byte header of a mono 16-bit WAV of `sampleCount` samples. */
function wavHeader(sampleRate: number, sampleCount: number): Buffer {
  const dataBytes = sampleCount * 2;
  const out = Buffer.alloc(HEADER_BYTES);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  return out;
}

/**
 * A mono 16-bit WAV file written as its audio comes (a chapter, sentence by sentence): the samples go
 * to disk at once, and the header's sizes are filled in at `close`. Nothing is held in memory.
 */
export class WavFileWriter {
  private count = 0;
  private constructor(
    private readonly handle: fs.FileHandle,
    readonly sampleRate: number,
  ) {}

  static async create(file: string, sampleRate: number): Promise<WavFileWriter> {
    const handle = await fs.open(file, 'w', 0o600);
    await handle.write(wavHeader(sampleRate, 0), 0, HEADER_BYTES, 0);
    return new WavFileWriter(handle, sampleRate);
  }

  /** Samples written so far. */
  get sampleCount(): number {
    return this.count;
  }

  async write(samples: Int16Array): Promise<void> {
    if (samples.length === 0) return;
    const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    await this.handle.write(bytes, 0, bytes.length, HEADER_BYTES + this.count * 2);
    this.count += samples.length;
  }

  /** Fills in the header and closes the file; returns the samples written. */
  async close(): Promise<number> {
    try {
      await this.handle.write(wavHeader(this.sampleRate, this.count), 0, HEADER_BYTES, 0);
    } finally {
      await this.handle.close();
    }
    return this.count;
  }
}

/** Reads a mono WAV file's samples in chunks. */
async function* wavChunks(file: string, info: WavFileInfo): AsyncGenerator<Int16Array> {
  const handle = await fs.open(file, 'r');
  try {
    const total = info.sampleCount * 2;
    const buffer = Buffer.alloc(CHUNK_BYTES);
    for (let done = 0; done < total; ) {
      const want = Math.min(CHUNK_BYTES, total - done);
      const { bytesRead } = await handle.read(buffer, 0, want, info.dataOffset + done);
      if (bytesRead === 0) break;
      const even = bytesRead & ~1;
      // A copy: the buffer is reused for the next read, and Int16Array needs an aligned offset.
      yield new Int16Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + even));
      done += even;
    }
  } finally {
    await handle.close();
  }
}

export interface MasterChapterOptions {
  /**
   * Bring the chapter into ACX's window (the API's `volume_normalization`, and `acx_volume_normalization`,
   * its deprecated name: both ask for "audiobook normalized volume requirements"): gain to `targetRmsDb`
   * (−20 dB RMS) then the peak limiter at `ceilingDb` (−3.5 dBFS). Off: the audio keeps its level, and is
   * still measured.
   */
  normalize: boolean;
  targetRmsDb?: number;
  ceilingDb?: number;
  /** Room tone at the head (0.5–1 s, default 0.75) and the tail (1–5 s, default 2): ACX's ranges. */
  leadSec?: number;
  tailSec?: number;
  /** The room tone's seed: the same seed gives the same bytes on a reconversion. */
  seed?: number;
}

export interface MasteredChapter {
  /** ACX's figures of the chapter as mastered but for the gain and limiter (room tone included). */
  before: AcxReport;
  /** ACX's figures of the file written. */
  after: AcxReport;
  /** The gain applied (dB; 0 without normalisation). */
  gainDb: number;
  /** The deepest gain reduction of the limiter (dB, ≤ 0). */
  limiterDb: number;
  sampleRate: number;
  /** Samples of the file written (head and tail room tone included): what the chapter marks count. */
  sampleCount: number;
}

/**
 * Masters one chapter: `input` (a mono 16-bit WAV as synthesised, pauses as digital silence) becomes
 * `output` with room tone at its head and tail and in its pauses, normalised when asked, and measured
 * before and after. Two passes over the file (measure, then gain + limit + write), each chunk by chunk:
 * the gain needs the whole chapter's RMS before the first sample can be written.
 */
export async function masterChapterWav(
  input: string,
  output: string,
  options: MasterChapterOptions,
): Promise<MasteredChapter> {
  const info = await readWavInfo(input);
  if (info.channels !== 1)
    throw new AppError(
      'invalid_request',
      `A chapter's audio must be mono; this one has ${info.channels} channels.`,
    );
  const { leadSec, tailSec } = chapterPadding(options.leadSec, options.tailSec);
  const rate = info.sampleRate;
  const seed = options.seed ?? 1;

  const lead = Math.round(leadSec * rate);
  const tail = Math.round(tailSec * rate);
  /** The chapter between its head and tail of digital silence (room tone's places), chunk by chunk. */
  async function* padded(): AsyncGenerator<Int16Array> {
    yield new Int16Array(lead);
    yield* wavChunks(input, info);
    yield new Int16Array(tail);
  }

  // Pass 1: the chapter as it would be without normalisation (room tone in its silences), measured.
  const before = new AcxMeter(rate);
  const measureFiller = new DigitalSilenceFiller(rate, new RoomTone(seed));
  for await (const chunk of padded()) before.push(measureFiller.push(chunk));
  before.push(measureFiller.flush());
  const measured = before.result();
  const gainDb = options.normalize ? normalizationGainDb(measured, options.targetRmsDb) : 0;

  // Pass 2: gain and limiter on the speech, then the room tone into its silences: the room tone keeps its
  // level whatever the gain (lifting it with quiet speech would push it past ACX's −60 dB floor). Zeros
  // stay zeros through the gain and the limiter, so the silences are where they were.
  const after = new AcxMeter(rate);
  const filler = new DigitalSilenceFiller(rate, new RoomTone(seed));
  const limiter = options.normalize
    ? new PeakLimiter(rate, { gainDb, ceilingDb: options.ceilingDb })
    : undefined;
  const writer = await WavFileWriter.create(output, rate);
  const emit = async (samples: Int16Array) => {
    const out = filler.push(samples);
    after.push(out);
    await writer.write(out);
  };
  try {
    for await (const chunk of padded()) await emit(limiter ? limiter.push(chunk) : chunk);
    if (limiter) await emit(limiter.flush());
    const rest = filler.flush();
    after.push(rest);
    await writer.write(rest);
  } finally {
    await writer.close();
  }
  const limiterDb = limiter?.maxGainReductionDb ?? 0;
  return {
    before: acxReport(measured),
    after: acxReport(after.result()),
    gainDb: Math.round(gainDb * 100) / 100,
    limiterDb: Math.round(limiterDb * 100) / 100,
    sampleRate: rate,
    sampleCount: writer.sampleCount,
  };
}
