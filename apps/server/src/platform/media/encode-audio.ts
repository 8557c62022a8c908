import fs from 'node:fs/promises';
import path from 'node:path';
import { encodeWav, type PcmAudio } from '@parla/audio';
import { describeOutputFormat, type OutputFormat } from '@parla/contracts';
import { type ProgramExit, programHost } from '../program-host';
import { withScratchDir } from '../scratch-dirs';
import { createInProcessEncoder, encodesInProcess } from './inprocess-encoder';

/**
 * The ffmpeg arguments that turn mono 16-bit audio on stdin into a format on stdout. The input is a whole
 * WAV; or, with `streaming`, a Sun AU stream whose header says "unknown length", written while ffmpeg
 * runs — read as soon as it comes (no probing) and encoded out packet by packet. Not a streamed WAV:
 * ffmpeg's WAV reader first reads 64 KB to look for S/PDIF data, so a short first sentence (under 2 s at
 * 16 kHz) gave no audio until the next one came.
 */
export function ffmpegArgs(format: OutputFormat, streaming = false): string[] {
  const spec = describeOutputFormat(format);
  const source = streaming ? ['-probesize', '32', '-analyzeduration', '0', '-f', 'au'] : ['-f', 'wav'];
  const input = ['-hide_banner', '-loglevel', 'error', ...source, '-i', 'pipe:0', '-ac', '1'];
  const output = ['-ar', String(spec.sampleRate), ...(streaming ? ['-flush_packets', '1'] : [])];
  switch (spec.codec) {
    case 'mp3':
      return [...input, ...output, '-c:a', 'libmp3lame', '-b:a', `${spec.bitrate}k`, '-f', 'mp3', 'pipe:1'];
    case 'opus':
      return [...input, ...output, '-c:a', 'libopus', '-b:a', `${spec.bitrate}k`, '-f', 'ogg', 'pipe:1'];
    case 'ulaw':
      return [...input, ...output, '-c:a', 'pcm_mulaw', '-f', 'mulaw', 'pipe:1'];
    case 'alaw':
      return [...input, ...output, '-c:a', 'pcm_alaw', '-f', 'alaw', 'pipe:1'];
    case 'pcm':
      return [...input, ...output, '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1'];
    case 'wav':
      // A streamed WAV cannot have its sizes filled in afterwards: ffmpeg's header then says "unknown
      // length". A whole one is wrapped in a canonical header by encodeAudio instead.
      return [...input, ...output, '-c:a', 'pcm_s16le', '-f', streaming ? 'wav' : 's16le', 'pipe:1'];
  }
}

/** The header of a mono 16-bit WAV holding `dataBytes` of samples. */
function wavHeader(sampleRate: number, dataBytes: number): Buffer {
  const header = encodeWav({ sampleRate, channels: 1, samples: new Int16Array(0) });
  header.writeUInt32LE(36 + dataBytes, 4);
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** The header of a Sun AU stream of mono 16-bit linear PCM (big-endian) of unknown length. */
function auHeader(sampleRate: number): Buffer {
  const header = Buffer.alloc(24);
  header.write('.snd', 0, 'latin1');
  header.writeUInt32BE(24, 4); // where the samples start
  header.writeUInt32BE(0xffffffff, 8); // unknown length
  header.writeUInt32BE(3, 12); // 16-bit linear PCM
  header.writeUInt32BE(sampleRate, 16);
  header.writeUInt32BE(1, 20); // mono
  return header;
}

/** Why ffmpeg failed, in one sentence; undefined when it finished cleanly. */
function ffmpegFailure(exit: ProgramExit): Error | undefined {
  if (exit.error) return new Error(`ffmpeg could not run: ${exit.error}`);
  if (exit.code === 0) return undefined;
  const how = exit.signal ? `was killed (${exit.signal})` : `exited with ${exit.code}`;
  return new Error(`ffmpeg ${how}: ${exit.stderr.slice(0, 300)}`);
}

/**
 * Runs ffmpeg over a buffer, in the program host (never forked from the server's process); a time bound
 * kills it. `warm` uses a copy started ahead with the same arguments.
 */
async function runFfmpeg(
  args: string[],
  input: Uint8Array | Uint8Array[],
  timeoutMs: number,
  warm = false,
): Promise<Buffer> {
  const run = programHost.run('ffmpeg', args, { timeoutMs, warm });
  const out: Buffer[] = [];
  run.output.on('data', (chunk: Buffer) => out.push(chunk));
  for (const part of Array.isArray(input) ? input : [input]) run.write(part);
  run.end();
  const failure = ffmpegFailure(await run.exit);
  if (failure) throw failure;
  return Buffer.concat(out);
}

/**
 * Encodes mono PCM into an API output format with Debian's ffmpeg (resampling included). WAV is the
 * resampled PCM wrapped in a canonical header here, since ffmpeg cannot finish a WAV header on a pipe.
 */
export async function encodeAudio(
  audio: PcmAudio,
  format: OutputFormat,
  timeoutMs = 30_000,
): Promise<Buffer> {
  const spec = describeOutputFormat(format);
  // The header, then the samples as they are (no copy of a long audio into one WAV buffer first).
  const { samples } = audio;
  const input = [
    wavHeader(audio.sampleRate, samples.byteLength),
    new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength),
  ];
  const encoded = await runFfmpeg(ffmpegArgs(format), input, timeoutMs, true);
  if (spec.codec !== 'wav') return encoded;
  const pcm = new Int16Array(encoded.buffer, encoded.byteOffset, Math.floor(encoded.byteLength / 2));
  return encodeWav({ sampleRate: spec.sampleRate, channels: 1, samples: new Int16Array(pcm) });
}

/**
 * Transcodes a WAV into AAC (ADTS) or FLAC, the two OpenAI response formats outside the public API's
 * list. FLAC goes through a file, so ffmpeg can go back and write the length into its header.
 */
export async function transcodeWav(wav: Buffer, to: 'aac' | 'flac', timeoutMs = 30_000): Promise<Buffer> {
  const input = ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0'];
  if (to === 'aac')
    return runFfmpeg([...input, '-c:a', 'aac', '-b:a', '128k', '-f', 'adts', 'pipe:1'], wav, timeoutMs);
  return withScratchDir('flac-', async (dir) => {
    const file = path.join(dir, 'out.flac');
    await runFfmpeg([...input, '-c:a', 'flac', '-y', file], wav, timeoutMs);
    return fs.readFile(file);
  });
}

/** An encoder of samples as they are written, for streamed responses (in process, or an ffmpeg process). */
export interface StreamEncoder {
  /** Samples to encode; every write of one stream has the sample rate of the first. */
  write(samples: Int16Array, sampleRate: number): void;
  end(): void;
  /** The encoded bytes, as they are made. */
  output: NodeJS.ReadableStream;
  /** Resolves when the encoding has finished cleanly; rejects otherwise. */
  done: Promise<void>;
  kill(): void;
}

/**
 * MP3, PCM, μ-law and A-law streams are encoded in this process (inprocess-encoder.ts); Opus and WAV by
 * ffmpeg, started before any audio exists (taking a copy started ahead when there is one): its start-up
 * (~0.1 s of CPU for Debian's ffmpeg and its 200 libraries) then never sits between the first sentence
 * and the first byte. The first write sends an AU header with that sentence's sample rate; samples go
 * big-endian, as AU holds them.
 */
export function createStreamEncoder(format: OutputFormat, timeoutMs = 120_000): StreamEncoder {
  if (encodesInProcess(format)) return createInProcessEncoder(format);
  const run = programHost.run('ffmpeg', ffmpegArgs(format, true), { timeoutMs, warm: true });
  const done = run.exit.then((exit) => {
    const failure = ffmpegFailure(exit);
    if (failure) throw failure;
  });
  done.catch(() => undefined);
  let inputRate: number | undefined;
  return {
    write: (samples, sampleRate) => {
      if (inputRate === undefined) {
        inputRate = sampleRate;
        run.write(auHeader(sampleRate));
      } else if (sampleRate !== inputRate) {
        throw new Error(`A stream at ${inputRate} Hz was given samples at ${sampleRate} Hz.`);
      }
      // Buffer.from copies a Uint8Array: the caller's samples stay as they are.
      run.write(Buffer.from(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)).swap16());
    },
    end: () => run.end(),
    output: run.output,
    done,
    kill: () => run.kill(),
  };
}

/**
 * Decodes audio stored in an API output format into a WAV of the same sample rate (the history download's
 * `output_format=wav`). Headerless formats (PCM, μ-law, A-law) are described to ffmpeg; WAV is returned.
 */
export async function decodeToWav(audio: Buffer, format: OutputFormat, timeoutMs = 30_000): Promise<Buffer> {
  const spec = describeOutputFormat(format);
  if (spec.codec === 'wav') return audio;
  const raw = { pcm: 's16le', ulaw: 'mulaw', alaw: 'alaw' } as Partial<Record<string, string>>;
  const rawFormat = raw[spec.codec];
  const source = rawFormat ? ['-f', rawFormat, '-ar', String(spec.sampleRate), '-ac', '1'] : [];
  const args = ['-hide_banner', '-loglevel', 'error', ...source, '-i', 'pipe:0'];
  const out = ['-ac', '1', '-ar', String(spec.sampleRate), '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1'];
  const pcm = await runFfmpeg([...args, ...out], audio, timeoutMs);
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.byteLength / 2));
  return encodeWav({ sampleRate: spec.sampleRate, channels: 1, samples: new Int16Array(samples) });
}
