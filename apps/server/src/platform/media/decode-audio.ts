import type { PcmAudio } from '@parla/audio';
import { UPLOAD_INPUT_ARGS, UploadRejectedError } from './probe-upload';
import { runMediaTool, withInputFile } from './run-media-tool';

/** How far past a limit a recording may run and still pass: encoders pad the start and end a little. */
const LIMIT_SLACK_SECONDS = 0.25;

export interface DecodeToPcmOptions {
  /** The rate the samples come out at. */
  sampleRate: number;
  /** Decoding stops here: a longer file gives its first `maxSeconds` (or is refused, below). */
  maxSeconds: number;
  /**
   * Refuse (`too_long`) a file that holds more than `maxSeconds`, whatever its header says, instead of
   * cutting it. Decoding still stops just past the limit, so a lying header costs no more than the limit.
   */
  refuseLonger?: boolean;
  /** ffmpeg is killed past this. */
  timeoutMs?: number;
}

/**
 * Decodes the first audio stream of an upload (any §5 type, audio or video) into mono 16-bit PCM at the
 * rate asked, with ffmpeg in the program host. Channels are averaged (`-ac 1`); the level is left as it
 * is (no normalisation). Throws UploadRejectedError for content without audio or that cannot be read.
 */
export async function decodeToPcm(bytes: Uint8Array, options: DecodeToPcmOptions): Promise<PcmAudio> {
  const { sampleRate, maxSeconds } = options;
  if (!Number.isInteger(sampleRate) || sampleRate < 1000 || sampleRate > 192_000) {
    throw new RangeError(`A sample rate of ${sampleRate} Hz cannot be decoded to.`);
  }
  if (!(maxSeconds > 0)) throw new RangeError(`maxSeconds must be positive, not ${maxSeconds}.`);
  if (bytes.byteLength === 0) throw new UploadRejectedError('empty', 'The file is empty.');
  // Past the limit by more than the slack, it is longer than allowed (the slack covers codec padding).
  const decodeSeconds = options.refuseLonger ? maxSeconds + 2 * LIMIT_SLACK_SECONDS : maxSeconds;
  const result = await withInputFile(bytes, (file) =>
    runMediaTool(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-v',
        'error',
        ...UPLOAD_INPUT_ARGS,
        '-i',
        file,
        '-map',
        '0:a:0',
        '-t',
        String(decodeSeconds),
        '-ac',
        '1',
        '-ar',
        String(sampleRate),
        '-c:a',
        'pcm_s16le',
        '-f',
        's16le',
        'pipe:1',
      ],
      { timeoutMs: options.timeoutMs ?? 60_000 },
    ),
  );
  if (result.timedOut) throw new UploadRejectedError('timed_out', 'The file took too long to decode.');
  const { stderr } = result.exit;
  if (result.exit.code !== 0) {
    if (/matches no streams/.test(stderr))
      throw new UploadRejectedError('no_audio', 'The file has no audio track.');
    throw new UploadRejectedError(
      'not_media',
      'The file is not audio that can be decoded: it is damaged, cut short, or another kind of file.',
      { cause: new Error(stderr.slice(0, 500)) },
    );
  }
  const samples = new Int16Array(Math.floor(result.stdout.byteLength / 2));
  Buffer.from(samples.buffer).set(result.stdout.subarray(0, samples.byteLength));
  if (samples.length === 0) throw new UploadRejectedError('no_audio', 'The file holds no audio samples.');
  if (options.refuseLonger && samples.length > (maxSeconds + LIMIT_SLACK_SECONDS) * sampleRate) {
    throw new UploadRejectedError(
      'too_long',
      `The recording is longer than ${maxSeconds} s; at most ${maxSeconds} s is accepted.`,
    );
  }
  return { sampleRate, channels: 1, samples };
}
