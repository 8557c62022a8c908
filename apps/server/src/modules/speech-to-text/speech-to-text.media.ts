import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { STT_MAX_SECONDS } from '@parla/contracts';
import { AppError } from '../../platform/errors';
import { UPLOAD_INPUT_ARGS, UploadRejectedError } from '../../platform/media/probe-upload';
import { runMediaTool } from '../../platform/media/run-media-tool';

/** `file_format=pcm_s16le_16`: 16-bit little-endian mono at 16 kHz. */
export const RAW_PCM_RATE = 16_000;

/** A 44-byte WAV header for `dataBytes` of 16-bit mono PCM at `rate`. */
export function wavHeader(dataBytes: number, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/**
 * Raw `pcm_s16le_16` input as a WAV file beside it (streamed: a large upload is never in memory), so the
 * rest of the work reads it like any upload. Returns the file and its duration.
 */
export async function rawPcmToWav(raw: string, target: string): Promise<{ file: string; seconds: number }> {
  const { size } = await stat(raw);
  const dataBytes = size - (size % 2);
  if (dataBytes === 0) throw new UploadRejectedError('empty', 'The file holds no audio samples.');
  const seconds = dataBytes / 2 / RAW_PCM_RATE;
  if (seconds > STT_MAX_SECONDS)
    throw new UploadRejectedError(
      'too_long',
      `The recording is ${Math.round(seconds)} s long; at most ${STT_MAX_SECONDS} s is accepted.`,
    );
  const out = createWriteStream(target, { mode: 0o600 });
  out.write(wavHeader(dataBytes, RAW_PCM_RATE));
  await pipeline(createReadStream(raw, { end: dataBytes - 1 }), out);
  return { file: target, seconds };
}

/**
 * The audio the page plays: the upload's first audio stream (a video's sound) as MP3, mono or stereo,
 * at most the longest transcribed (and a little), written to `target` by ffmpeg in the program host.
 */
export async function makePlaybackMp3(
  source: string,
  target: string,
  channels: number,
  signal?: AbortSignal,
): Promise<void> {
  if (signal?.aborted) throw signal.reason;
  const result = await runMediaTool(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      ...UPLOAD_INPUT_ARGS,
      '-i',
      source,
      '-map',
      '0:a:0',
      '-vn',
      '-t',
      String(STT_MAX_SECONDS + 1),
      '-ac',
      String(Math.min(2, Math.max(1, channels))),
      '-ar',
      '44100',
      '-c:a',
      'libmp3lame',
      '-b:a',
      channels > 1 ? '96k' : '64k',
      '-f',
      'mp3',
      '-y',
      target,
    ],
    // ffmpeg encodes MP3 at well over 50× real time; the bound leaves room for a loaded machine.
    { timeoutMs: 60_000 + STT_MAX_SECONDS * 200 },
  );
  if (result.timedOut) throw new AppError('service_unavailable', 'The audio took too long to convert.');
  if (result.exit.code !== 0)
    throw new UploadRejectedError(
      'not_media',
      'The file is not audio or video that can be read: it is damaged, cut short, or another kind of file.',
      { cause: new Error(result.exit.stderr.slice(0, 500)) },
    );
}
