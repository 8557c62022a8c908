/*
 * The dubbing pipeline's media steps on files (issue 29): probe the source, cut the `start_time`/`end_time`
 * range, and take its sound out — mono 16 kHz for transcription, Float32 at the mixing rate for the rebuild.
 * The mixing is in dub-mix.ts, the outputs in dub-render.ts. Pure functions over files: no database; ffmpeg
 * and ffprobe run in the program host (run-media-tool.ts), never on the event loop.
 */
import fs from 'node:fs/promises';
import { type PcmAudio, parseWav } from '@parla/audio';
import { z } from 'zod';
import { AppError } from '../errors';
import { parseFfprobe, UPLOAD_INPUT_ARGS, UploadRejectedError } from './probe-upload';
import { type MediaToolResult, runMediaTool } from './run-media-tool';

/**
 * The rate the dubbed track is mixed at. 48 kHz because a video's sound is 48 kHz almost always, so its
 * background is not resampled, and AAC in MP4 is usually 48 kHz too.
 */
export const MIX_SAMPLE_RATE = 48_000;

/** The message a dub fails with when its source has no sound (the lead's pipeline reports it as is). */
export const NO_AUDIO_TO_DUB_MESSAGE = 'This video has no audio track to dub.';

/** The error for a source without an audio stream: nothing to transcribe, nothing to dub. */
export function noAudioToDub(): UploadRejectedError {
  return new UploadRejectedError('no_audio', NO_AUDIO_TO_DUB_MESSAGE);
}

/** What a dub needs to know about its source. */
export interface MediaInfo {
  /** The container's duration, else the longest stream's; 0 when nothing states one. */
  durationSec: number;
  hasAudio: boolean;
  /** A real video track (cover art in an MP3 or M4A does not count). */
  hasVideo: boolean;
  videoCodec: string | undefined;
  audioCodec: string | undefined;
  width: number | undefined;
  height: number | undefined;
  /** ffprobe's demuxer name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
}

const FfprobeVideo = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        disposition: z.object({ attached_pic: z.number().optional() }).optional(),
      }),
    )
    .default([]),
});

/** A time bound for ffmpeg over a file of `seconds`: a minute, plus a second per second of media. */
const boundFor = (seconds: number) => 60_000 + Math.ceil(seconds) * 1_000;

/** Throws for an ffmpeg/ffprobe run that did not finish cleanly, with the start of what it said. */
function checkRun(result: MediaToolResult, what: string): void {
  if (result.timedOut) throw new AppError('service_unavailable', `${what} took too long.`);
  if (result.exit.code === 0) return;
  if (/matches no streams/.test(result.exit.stderr)) throw noAudioToDub();
  throw new AppError('internal_error', `${what} failed.`, {
    cause: new Error(result.exit.stderr.slice(0, 500)),
  });
}

/**
 * Probes a media file already accepted as an upload (probeUploadFile checked its type and limits): the
 * facts the dub needs, with the picture size the render and the editor need. Reads only through the
 * upload demuxer whitelist, like every read of an upload.
 */
export async function probeMedia(file: string, timeoutMs = 15_000): Promise<MediaInfo> {
  const result = await runMediaTool(
    'ffprobe',
    [
      '-hide_banner',
      '-v',
      'error',
      ...UPLOAD_INPUT_ARGS,
      '-show_entries',
      'format=format_name,duration:stream=codec_type,codec_name,sample_rate,channels,duration,width,height:stream_disposition=attached_pic',
      '-of',
      'json',
      file,
    ],
    { timeoutMs },
  );
  if (result.timedOut) throw new UploadRejectedError('timed_out', 'The file took too long to read.');
  const json = result.stdout.toString();
  const probe = result.exit.code === 0 ? parseFfprobe(json) : undefined;
  if (!probe || (!probe.hasAudio && !probe.hasVideo)) {
    throw new UploadRejectedError('not_media', 'The file holds no audio or video that can be read.', {
      cause: new Error(result.exit.stderr.slice(0, 500)),
    });
  }
  const video = FfprobeVideo.parse(JSON.parse(json)).streams.find(
    (s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1,
  );
  return {
    durationSec: probe.durationSeconds ?? 0,
    hasAudio: probe.hasAudio,
    hasVideo: probe.hasVideo,
    videoCodec: probe.videoCodec,
    audioCodec: probe.audioCodec,
    width: video?.width,
    height: video?.height,
    formatName: probe.format,
  };
}

/** How close (seconds) a keyframe must be to the cut's start for the video to be copied, not re-encoded. */
export const KEYFRAME_COPY_TOLERANCE_SEC = 0.02;

/** The presentation times of the keyframes in [fromSec, toSec] of the first video stream. */
async function keyframeTimes(file: string, fromSec: number, toSec: number): Promise<number[]> {
  const result = await runMediaTool(
    'ffprobe',
    [
      '-hide_banner',
      '-v',
      'error',
      ...UPLOAD_INPUT_ARGS,
      '-select_streams',
      'v:0',
      '-skip_frame',
      'nokey',
      '-read_intervals',
      `${Math.max(0, fromSec)}%${toSec}`,
      '-show_entries',
      'frame=pts_time',
      '-of',
      'csv=p=0',
      file,
    ],
    { timeoutMs: 30_000 },
  );
  checkRun(result, 'Finding the keyframes');
  return result.stdout
    .toString()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => Number(line.split(',')[0]))
    .filter((t) => Number.isFinite(t));
}

export interface TrimRange {
  /** The API's `start_time` in seconds; 0 or absent: from the start. */
  startSec?: number;
  /** The API's `end_time` in seconds; absent or past the end: to the end. */
  endSec?: number;
}

export interface TrimResult {
  /** The cut's length in seconds (what the dub's output lasts). */
  durationSec: number;
  /** The video was stream-copied (the cut starts on a keyframe), not re-encoded. */
  videoCopied: boolean;
}

/**
 * Cuts the API's `start_time`…`end_time` range out of a source into `out`, always a QuickTime (.mov) file
 * whatever `out` is named: it holds any video codec and keeps the edit lists MP4 sources start with, and
 * it is the dub's own working copy (read back through the upload whitelist). Video and sound are cut at
 * the same decoded time (ffmpeg's accurate seek), so they stay in sync. The video is stream-copied — the
 * untouched stream the render copies again — when the range starts at 0 or on a keyframe and runs to the
 * source's end; otherwise it is re-encoded with libx264 (CRF 18): a copy can only start on a keyframe
 * (off by up to a GOP, seconds), and a copy's end overruns by the frames reordered past it (measured:
 * 2 frames with B-frames). The sound is decoded and stored as 16-bit PCM: sample-exact at both ends and
 * never encoded twice. A source without sound gets `noAudioToDub()`.
 */
export async function trimMedia(file: string, out: string, range: TrimRange): Promise<TrimResult> {
  const info = await probeMedia(file);
  if (!info.hasAudio) throw noAudioToDub();
  const startSec = Math.max(0, range.startSec ?? 0);
  const toEnd = range.endSec === undefined || range.endSec >= info.durationSec - KEYFRAME_COPY_TOLERANCE_SEC;
  const endSec = toEnd ? info.durationSec : (range.endSec as number);
  if (!(endSec > startSec)) {
    throw new AppError(
      'invalid_request',
      `The time range ${startSec}–${endSec} s holds nothing of a ${info.durationSec.toFixed(1)} s source.`,
    );
  }
  let videoCopied = false;
  if (info.hasVideo && toEnd) {
    if (startSec === 0) videoCopied = true;
    else {
      const keys = await keyframeTimes(file, startSec - 1, startSec + 1);
      videoCopied = keys.some((t) => Math.abs(t - startSec) <= KEYFRAME_COPY_TOLERANCE_SEC);
    }
  }
  const video = info.hasVideo
    ? [
        '-map',
        '0:v:0',
        ...(videoCopied
          ? ['-c:v', 'copy']
          : ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt', 'yuv420p']),
      ]
    : [];
  const length = endSec - startSec;
  const result = await runMediaTool(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      ...UPLOAD_INPUT_ARGS,
      // An input option: ffmpeg seeks, decodes from the keyframe before and drops what precedes the start
      // (accurate seek), for both streams alike.
      ...(startSec > 0 ? ['-ss', String(startSec)] : []),
      '-i',
      file,
      // An output option: re-encoded streams end exactly here.
      ...(toEnd ? [] : ['-t', String(length)]),
      ...video,
      '-map',
      '0:a:0',
      '-c:a',
      'pcm_s16le',
      '-f',
      'mov',
      '-y',
      out,
    ],
    { timeoutMs: boundFor(length) * (videoCopied || !info.hasVideo ? 1 : 4) },
  );
  checkRun(result, 'Cutting the time range');
  return { durationSec: length, videoCopied };
}

/** Runs ffmpeg decoding the first audio stream of `file` with the output arguments given. */
async function decodeAudio(file: string, output: string[], timeoutMs: number): Promise<MediaToolResult> {
  const result = await runMediaTool(
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
      '-vn',
      ...output,
    ],
    { timeoutMs },
  );
  checkRun(result, 'Reading the sound');
  return result;
}

/**
 * The sound the recogniser hears: the first audio stream as mono 16-bit PCM at `sampleRate` (16 kHz, the
 * rate the speech-to-text engines take), written to `out` as a WAV and returned. Channels are averaged.
 * A source without sound gets `noAudioToDub()`.
 */
export async function extractSpeechAudio(
  file: string,
  out: string,
  sampleRate = 16_000,
  timeoutMs = 120_000,
): Promise<PcmAudio> {
  await decodeAudio(
    file,
    ['-ac', '1', '-ar', String(sampleRate), '-c:a', 'pcm_s16le', '-f', 'wav', '-y', out],
    timeoutMs,
  );
  const audio = parseWav(await fs.readFile(out));
  if (audio.samples.length === 0) throw noAudioToDub();
  return audio;
}

/**
 * The source's sound for the rebuild, as mono Float32 at `sampleRate` (MIX_SAMPLE_RATE). Mono, not
 * stereo: the dubbed speech is mono and sits in the centre anyway, and a mono track halves the memory of
 * the mix (a minute is 11.5 MB; an hour would be 690 MB, so long sources are for the caller to bound). The
 * loss: a stereo source's background is folded to mono.
 */
export async function extractMixAudio(
  file: string,
  sampleRate = MIX_SAMPLE_RATE,
  timeoutMs = 120_000,
): Promise<Float32Array> {
  const result = await decodeAudio(
    file,
    ['-ac', '1', '-ar', String(sampleRate), '-c:a', 'pcm_f32le', '-f', 'f32le', 'pipe:1'],
    timeoutMs,
  );
  const count = Math.floor(result.stdout.byteLength / 4);
  if (count === 0) throw noAudioToDub();
  const pcm = new Float32Array(count);
  Buffer.from(pcm.buffer).set(result.stdout.subarray(0, count * 4));
  return pcm;
}
