import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ProbedAudio {
  codec: string;
  sampleRate: number;
  channels: number;
  seconds: number;
}

/** What ffprobe reads in an audio file: its codec, sample rate, channels and duration. */
export function probeAudio(bytes: Uint8Array): ProbedAudio {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-probe-'));
  const file = path.join(dir, 'audio');
  try {
    fs.writeFileSync(file, bytes);
    const out = JSON.parse(
      execFileSync('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name,sample_rate,channels:format=duration',
        '-of',
        'json',
        file,
      ]).toString(),
    ) as {
      streams: { codec_name: string; sample_rate: string; channels: number }[];
      format: { duration: string };
    };
    const stream = out.streams[0];
    return {
      codec: stream?.codec_name ?? '',
      sampleRate: Number(stream?.sample_rate),
      channels: stream?.channels ?? 0,
      seconds: Number(out.format.duration),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads a web ReadableStream to the end. */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Decodes audio the way a strict player does: ffmpeg stops at the first error (a header missing in the
 * middle, a broken frame) and this throws; else answers the seconds of audio decoded.
 */
export function decodeStrictly(bytes: Uint8Array): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-probe-'));
  const file = path.join(dir, 'audio');
  try {
    fs.writeFileSync(file, bytes);
    const pcm = execFileSync(
      'ffmpeg',
      [
        '-v',
        'error',
        '-xerror',
        '-err_detect',
        'explode',
        '-i',
        file,
        '-f',
        's16le',
        '-ac',
        '1',
        '-ar',
        '16000',
        '-',
      ],
      { maxBuffer: 512 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return pcm.length / 2 / 16000;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
