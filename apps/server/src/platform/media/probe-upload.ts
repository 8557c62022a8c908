import { AUDIO_UPLOAD_TYPES, type ErrorCode, VIDEO_UPLOAD_TYPES } from '@parla/contracts';
import { z } from 'zod';
import { AppError } from '../errors';
import { type MediaToolResult, runMediaTool, withInputFile } from './run-media-tool';

/**
 * The §5 upload types by the container ffprobe finds in the content (its demuxer's `format_name`), for
 * audio-only and for video content. A container missing from a side is refused there: an ASF file with
 * only audio is WMA, which §5 does not list; Ogg with a Theora track is taken for its audio.
 */
export const UPLOAD_FORMATS: Record<string, { audio: string[]; video: string[] }> = {
  // One demuxer for the ISO family: MP4, M4A, QuickTime (.mov) and 3GPP.
  'mov,mp4,m4a,3gp,3g2,mj2': { audio: ['mp4', 'm4a'], video: ['mp4', 'quicktime', '3gpp'] },
  'matroska,webm': { audio: ['webm'], video: ['mkv', 'webm'] },
  // Vorbis, Opus, FLAC or Speex in Ogg.
  ogg: { audio: ['ogg', 'opus'], video: [] },
  // MPEG audio layers 1–3 (audio/mpeg).
  mp3: { audio: ['mp3', 'mpeg'], video: [] },
  wav: { audio: ['wav'], video: [] },
  aiff: { audio: ['aiff'], video: [] },
  flac: { audio: ['flac'], video: [] },
  // ADTS, as browsers and phones write bare AAC.
  aac: { audio: ['aac'], video: [] },
  asf: { audio: [], video: ['wmv'] },
  flv: { audio: [], video: ['flv'] },
  avi: { audio: [], video: ['avi'] },
  // MPEG program streams (.mpg): video, or MPEG audio in one.
  mpeg: { audio: ['mpeg'], video: ['mpeg'] },
};

/**
 * The only demuxers ffmpeg may use on an upload. Besides refusing other content, this keeps playlists
 * and concat lists (HLS, `ffconcat`) from making ffmpeg open other files or URLs named inside an upload.
 */
export const UPLOAD_DEMUXERS = [...new Set(Object.keys(UPLOAD_FORMATS).flatMap((f) => f.split(',')))].join(
  ',',
);

/** The input options every read of an upload starts with: known demuxers, local file only. */
export const UPLOAD_INPUT_ARGS = ['-format_whitelist', UPLOAD_DEMUXERS, '-protocol_whitelist', 'file'];

/** Why an upload was refused. */
export type UploadRejection =
  | 'empty'
  | 'too_large'
  | 'too_long'
  /** Not audio or video ffmpeg can read: damaged, truncated, or another kind of file. */
  | 'not_media'
  /** Readable, but far less of it decodes than its header says it holds: cut short or damaged. */
  | 'cut_short'
  /** Readable, but not one of the §5 types (an image, WMA, a playlist…). */
  | 'unsupported_type'
  | 'no_audio'
  | 'timed_out';

const REJECTION_CODES: Record<UploadRejection, ErrorCode> = {
  empty: 'unsupported_media_type',
  too_large: 'payload_too_large',
  too_long: 'bad_request',
  not_media: 'unsupported_media_type',
  cut_short: 'bad_request',
  unsupported_type: 'unsupported_media_type',
  no_audio: 'unsupported_media_type',
  // Our time bound, under load as often as for the file: a retryable 503, not the caller's fault.
  timed_out: 'service_unavailable',
};

/** An upload refused for its content or size, with a message fit for whoever uploaded it. */
export class UploadRejectedError extends AppError {
  constructor(
    readonly reason: UploadRejection,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(REJECTION_CODES[reason], message, options);
    this.name = 'UploadRejectedError';
  }
}

/** What ffprobe found in the content. */
export interface ProbedMedia {
  /** The container as ffprobe names its demuxer, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`. */
  format: string;
  /** Undefined when neither the container nor a stream states it. */
  durationSeconds: number | undefined;
  hasAudio: boolean;
  /** A real video track: cover art (an attached picture in an MP3 or M4A) does not count. */
  hasVideo: boolean;
  /** The first audio stream's codec, sample rate and channels. */
  audioCodec: string | undefined;
  sampleRate: number | undefined;
  channels: number | undefined;
  videoCodec: string | undefined;
}

export interface UploadProbe extends ProbedMedia {
  kind: 'audio' | 'video';
  bytes: number;
  /**
   * ffprobe estimated the length from the bitrate, as nothing in the file states it (ADTS AAC, an MP3
   * without a Xing frame): a variable-bitrate file's estimate is off by a fifth either way.
   */
  durationEstimated: boolean;
  /** The first audio stream's own stated length, where the container gives one per stream. */
  audioDurationSeconds: number | undefined;
}

export interface ProbeUploadOptions {
  maxBytes: number;
  maxSeconds: number;
  /** ffprobe is killed past this. */
  timeoutMs?: number;
}

const FfprobeOutput = z.object({
  format: z.object({ format_name: z.string(), duration: z.string().optional() }).optional(),
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        sample_rate: z.string().optional(),
        channels: z.number().optional(),
        duration: z.string().optional(),
        disposition: z.object({ attached_pic: z.number().optional() }).optional(),
      }),
    )
    .default([]),
});

/** A number ffprobe printed as text ("N/A" and the like become undefined). */
const numberOf = (text: string | undefined): number | undefined => {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) ? value : undefined;
};

/** Reads ffprobe's JSON into the facts, or undefined when it holds no container. */
export function parseFfprobe(json: string): ProbedMedia | undefined {
  let parsed: z.infer<typeof FfprobeOutput>;
  try {
    parsed = FfprobeOutput.parse(JSON.parse(json));
  } catch {
    return undefined;
  }
  if (!parsed.format) return undefined;
  const audio = parsed.streams.find((s) => s.codec_type === 'audio');
  const video = parsed.streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const streamSeconds = parsed.streams.map((s) => numberOf(s.duration) ?? 0);
  const longestStream = Math.max(0, ...streamSeconds);
  return {
    format: parsed.format.format_name,
    durationSeconds: numberOf(parsed.format.duration) ?? (longestStream > 0 ? longestStream : undefined),
    hasAudio: audio !== undefined,
    hasVideo: video !== undefined,
    audioCodec: audio?.codec_name,
    sampleRate: numberOf(audio?.sample_rate),
    channels: audio?.channels,
    videoCodec: video?.codec_name,
  };
}

/**
 * Which §5 list the content belongs to: video when it has a video track and its container is on the
 * video list, else audio when it has an audio track and its container is on the audio list.
 */
export function classifyUpload(probe: ProbedMedia): 'audio' | 'video' | undefined {
  const types = UPLOAD_FORMATS[probe.format];
  if (!types) return undefined;
  if (probe.hasVideo && types.video.length > 0) return 'video';
  if (probe.hasAudio && types.audio.length > 0) return 'audio';
  return undefined;
}

const MEGABYTE = 1024 * 1024;

/** The refusal for an ffprobe run that failed, or undefined when it succeeded. */
function probeFailure(result: MediaToolResult): UploadRejectedError | undefined {
  if (result.timedOut) return new UploadRejectedError('timed_out', 'The file took too long to read.');
  if (result.exit.code === 0) return undefined;
  const cause = new Error(result.exit.stderr.slice(0, 500));
  // "[png_pipe @ 0x…] Format not on whitelist": ffmpeg knows what it is, and it is not ours.
  const other = /\[([\w,]+) @ [^\]]*\] Format not on whitelist/.exec(result.exit.stderr)?.[1];
  if (other) {
    return new UploadRejectedError(
      'unsupported_type',
      `The file is not a supported audio or video type (its content reads as "${other}").`,
      { cause },
    );
  }
  return new UploadRejectedError(
    'not_media',
    'The file is not audio or video that can be read: it is damaged, cut short, or another kind of file.',
    { cause },
  );
}

/**
 * Identifies an upload by its content with ffprobe (never by its name or declared type) and checks it
 * against the §5 types and the limits given. Throws UploadRejectedError for anything it refuses; never
 * hangs (ffprobe is killed past `timeoutMs`). A duration neither the container nor a stream states passes:
 * decodeToPcm stops at its own `maxSeconds`.
 */
export async function probeUpload(bytes: Uint8Array, options: ProbeUploadOptions): Promise<UploadProbe> {
  checkUploadSize(bytes.byteLength, options);
  return withInputFile(bytes, (file) => probeUploadFile(file, bytes.byteLength, options));
}

/** The size rules of an upload: not empty, at most `maxBytes`. */
function checkUploadSize(size: number, options: ProbeUploadOptions): void {
  if (size === 0) throw new UploadRejectedError('empty', 'The file is empty.');
  if (size > options.maxBytes) {
    const limit =
      options.maxBytes >= MEGABYTE
        ? `${Math.floor(options.maxBytes / MEGABYTE)} MB`
        : `${options.maxBytes} bytes`;
    throw new UploadRejectedError('too_large', `The file is larger than ${limit}.`);
  }
}

/** probeUpload for an upload already on disk (`size` bytes at `file`): a large one is never read into memory. */
export async function probeUploadFile(
  file: string,
  size: number,
  options: ProbeUploadOptions,
): Promise<UploadProbe> {
  checkUploadSize(size, options);
  const result = await runMediaTool(
    'ffprobe',
    [
      '-hide_banner',
      // Warnings too: "Estimating duration from bitrate" says the length is a guess (durationEstimated).
      '-v',
      'warning',
      ...UPLOAD_INPUT_ARGS,
      '-show_entries',
      'format=format_name,duration:stream=codec_type,codec_name,sample_rate,channels,duration:stream_disposition=attached_pic',
      '-of',
      'json',
      file,
    ],
    { timeoutMs: options.timeoutMs ?? 10_000 },
  );
  const failure = probeFailure(result);
  if (failure) throw failure;
  const probe = parseFfprobe(result.stdout.toString());
  if (!probe || (!probe.hasAudio && !probe.hasVideo)) {
    throw new UploadRejectedError('not_media', 'The file holds no audio or video that can be read.');
  }
  const kind = classifyUpload(probe);
  if (!kind) {
    const what = probe.hasVideo ? 'video' : 'audio';
    throw new UploadRejectedError(
      'unsupported_type',
      `The file is ${what} in a container that is not supported ("${probe.format}"). Audio: ${AUDIO_UPLOAD_TYPES.join(', ')}; video: ${VIDEO_UPLOAD_TYPES.join(', ')}.`,
    );
  }
  if (probe.durationSeconds !== undefined && probe.durationSeconds > options.maxSeconds) {
    throw new UploadRejectedError(
      'too_long',
      `The recording is ${Math.round(probe.durationSeconds)} s long; at most ${options.maxSeconds} s is accepted.`,
    );
  }
  return {
    ...probe,
    kind,
    bytes: size,
    durationEstimated: /Estimating duration from bitrate/.test(result.exit.stderr),
    audioDurationSeconds: audioStreamSeconds(result.stdout.toString()),
  };
}

/** The first audio stream's `duration` in ffprobe's JSON (already parsed once by parseFfprobe). */
function audioStreamSeconds(json: string): number | undefined {
  const streams = FfprobeOutput.safeParse(JSON.parse(json)).data?.streams ?? [];
  return numberOf(streams.find((s) => s.codec_type === 'audio')?.duration);
}

/**
 * The length an upload states for its sound: its audio stream's, else (audio only) the container's; none
 * when ffprobe only estimated it from the bitrate, or a video states only its own.
 */
function statedAudioSeconds(probe: UploadProbe): number | undefined {
  if (probe.durationEstimated) return undefined;
  return probe.audioDurationSeconds ?? (probe.kind === 'audio' ? probe.durationSeconds : undefined);
}

/**
 * Refuses an upload whose sound decodes to far less than it states (issue 26 item 9: the first 1.5 KB of a
 * 7.3 s MP3 still says 7.3 s in its Xing frame, and was billed 7.3 s for 0.05 s of sound). The margin —
 * a second, or 5% of a long file — is well above what encoders pad or trim (priming samples, the last
 * frame: tens of milliseconds) and far below a cut-off upload's shortfall.
 */
export function checkDecodedLength(probe: UploadProbe, decodedSeconds: number): void {
  const stated = statedAudioSeconds(probe);
  if (stated === undefined) return;
  if (decodedSeconds >= stated - Math.max(1, 0.05 * stated)) return;
  const seconds = (n: number) => (n < 10 ? n.toFixed(1) : String(Math.round(n)));
  throw new UploadRejectedError(
    'cut_short',
    `The file is cut short or damaged: it says it lasts ${seconds(stated)} s, but only ${seconds(decodedSeconds)} s of sound can be decoded. Nothing was charged; send the whole file.`,
  );
}

/**
 * How many seconds of sound an upload's first audio stream really decodes to (ffmpeg decodes it all and
 * counts the samples: `asetpts=N/SR/TB` numbers them, so gaps in the stream's timestamps add nothing),
 * checked against what it states (checkDecodedLength). What is billed is this, never the header's claim.
 * Decoding stops a second past `maxSeconds`. About 0.03 s of CPU per minute of MP3.
 */
export async function measureDecodedSeconds(
  file: string,
  probe: UploadProbe,
  options: { maxSeconds: number; timeoutMs?: number },
): Promise<number> {
  const result = await runMediaTool(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-nostats',
      ...UPLOAD_INPUT_ARGS,
      '-i',
      file,
      '-map',
      '0:a:0',
      '-vn',
      '-af',
      'asetpts=N/SR/TB',
      '-t',
      String(options.maxSeconds + 1),
      '-f',
      'null',
      '-progress',
      'pipe:1',
      '-',
    ],
    { timeoutMs: options.timeoutMs ?? 60_000 + options.maxSeconds * 50 },
  );
  const failure = probeFailure(result);
  if (failure) throw failure;
  const times = [...result.stdout.toString().matchAll(/^out_time_us=(\d+)$/gm)];
  const decoded = Number(times.at(-1)?.[1] ?? 0) / 1_000_000;
  checkDecodedLength(probe, decoded);
  return decoded;
}
