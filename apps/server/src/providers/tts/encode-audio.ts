import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encodeWav, type PcmAudio } from '@parla/audio';
import { describeOutputFormat, type OutputFormat } from '@parla/contracts';

/**
 * The ffmpeg arguments that turn mono 16-bit audio on stdin (a WAV, or raw samples at `rawInputRate`)
 * into a format on stdout.
 */
export function ffmpegArgs(format: OutputFormat, rawInputRate?: number): string[] {
  const spec = describeOutputFormat(format);
  const source = rawInputRate ? ['-f', 's16le', '-ar', String(rawInputRate), '-ac', '1'] : ['-f', 'wav'];
  const input = ['-hide_banner', '-loglevel', 'error', ...source, '-i', 'pipe:0', '-ac', '1'];
  const output = ['-ar', String(spec.sampleRate), ...(rawInputRate ? ['-flush_packets', '1'] : [])];
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
      return [...input, ...output, '-c:a', 'pcm_s16le', '-f', rawInputRate ? 'wav' : 's16le', 'pipe:1'];
  }
}

/** Runs ffmpeg over a buffer; a time bound kills it. */
function runFfmpeg(args: string[], input: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new Error(
            `ffmpeg ${signal ? `was killed (${signal})` : `exited with ${code}`}: ${err.slice(0, 300)}`,
          ),
        );
    });
    child.stdin.on('error', () => undefined); // ffmpeg may stop reading early; its exit code tells
    child.stdin.end(input);
  });
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
  const encoded = await runFfmpeg(ffmpegArgs(format), encodeWav(audio), timeoutMs);
  if (spec.codec !== 'wav') return encoded;
  const samples = new Int16Array(encoded.buffer, encoded.byteOffset, Math.floor(encoded.byteLength / 2));
  return encodeWav({ sampleRate: spec.sampleRate, channels: 1, samples: new Int16Array(samples) });
}

/**
 * Transcodes a WAV into AAC (ADTS) or FLAC, the two OpenAI response formats outside the public API's
 * list. FLAC goes through a file, so ffmpeg can go back and write the length into its header.
 */
export async function transcodeWav(wav: Buffer, to: 'aac' | 'flac', timeoutMs = 30_000): Promise<Buffer> {
  const input = ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0'];
  if (to === 'aac')
    return runFfmpeg([...input, '-c:a', 'aac', '-b:a', '128k', '-f', 'adts', 'pipe:1'], wav, timeoutMs);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-flac-'));
  try {
    const file = path.join(dir, 'out.flac');
    await runFfmpeg([...input, '-c:a', 'flac', '-y', file], wav, timeoutMs);
    return await fs.readFile(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** An ffmpeg process that encodes samples as they are written, for streamed responses. */
export interface StreamEncoder {
  write(samples: Int16Array): void;
  end(): void;
  /** The encoded bytes, as ffmpeg produces them. */
  output: NodeJS.ReadableStream;
  /** Resolves when ffmpeg has finished cleanly; rejects otherwise. */
  done: Promise<void>;
  kill(): void;
}

export function createStreamEncoder(
  format: OutputFormat,
  inputRate: number,
  timeoutMs = 120_000,
): StreamEncoder {
  const child = spawn('ffmpeg', ffmpegArgs(format, inputRate), { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.stdin.on('error', () => undefined);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `ffmpeg ${signal ? `was killed (${signal})` : `exited with ${code}`}: ${err.slice(0, 300)}`,
          ),
        );
    });
  });
  done.catch(() => undefined);
  return {
    write: (samples) => {
      child.stdin.write(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
    },
    end: () => child.stdin.end(),
    output: child.stdout,
    done,
    kill: () => child.kill('SIGKILL'),
  };
}
