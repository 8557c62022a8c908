/*
 * The dub's outputs (issue 29): the render types of the dubbing resource API (mp4, aac, mp3, wav,
 * tracks_zip, clips_zip) and the transcripts (srt, webvtt). docs/decisions/0024-dubbing.md.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { encodeWav } from '@parla/audio';
import { type Zippable, zipSync } from 'fflate';
import { AppError } from '../errors';
import { withScratchDir } from '../scratch-dirs';
import { probeMedia } from './dub-media';
import { buildDubbedTrack, type DubClip, type DubMixInput, floatToInt16 } from './dub-mix';
import { UPLOAD_INPUT_ARGS } from './probe-upload';
import { runMediaTool } from './run-media-tool';

/** The render types of the dubbing resource API. */
export type DubRenderKind = 'mp4' | 'aac' | 'mp3' | 'wav' | 'tracks_zip' | 'clips_zip';

export interface DubRenderInput extends DubMixInput {
  /** The (trimmed) source: its video stream goes into an mp4 render untouched. */
  sourceFile: string;
  /** A short text drawn small in the video's bottom-right corner (mp4 of a video only). */
  watermark?: string;
}

export interface DubRenderResult {
  /** The file written (the `out` given). */
  file: string;
  contentType: string;
  /** The file name's extension for a download (`m4a` for an mp4 render of an audio-only source). */
  extension: string;
}

/** Video codecs MP4 holds as they are: copied; anything else (VP8, WMV, FLV1, MPEG-2…) is re-encoded. */
export const MP4_VIDEO_CODECS = new Set(['h264', 'hevc', 'mpeg4', 'av1', 'vp9']);

/**
 * The font drawtext uses for the watermark: DejaVu Sans from `fonts-dejavu-core`, one of the runtime
 * packages (scripts/install-system-deps.sh), so every installation has it.
 */
export const WATERMARK_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

const AUDIO_BITRATE = '160k';

/** Runs ffmpeg, throwing an internal error with the start of its complaint when it fails. */
async function ffmpeg(args: string[], timeoutMs: number): Promise<void> {
  const result = await runMediaTool('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', ...args], {
    timeoutMs,
  });
  if (result.exit.code === 0 && !result.timedOut) return;
  throw new AppError(
    result.timedOut ? 'service_unavailable' : 'internal_error',
    result.timedOut ? 'Rendering the dub took too long.' : 'Rendering the dub failed.',
    { cause: new Error(result.exit.stderr.slice(0, 500)) },
  );
}

/** A WAV of mono Float32 PCM (16-bit). */
const wavOf = (pcm: Float32Array, sampleRate: number) =>
  encodeWav({ sampleRate, channels: 1, samples: floatToInt16(pcm) });

/** A file-name-safe form of a speaker's name. */
const safeName = (name: string) => name.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'speaker';

/** `00-01-02.345`: a time in a file name (no colons: Windows refuses them). */
function fileTime(seconds: number): string {
  const ms = Math.round(Math.max(0, seconds) * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}-${pad(m)}-${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** A filter-graph option value with ffmpeg's special characters escaped (for a path in drawtext). */
const filterValue = (value: string) => value.replace(/[\\':]/g, (c) => `\\${c}`);

/**
 * Renders a dub into `out` in one of the API's render types:
 * - `mp4`: the source's first video stream copied untouched (`-c:v copy`) when its codec fits MP4 (else
 *   re-encoded with libx264), with the dubbed track in AAC. No `-shortest`: the track lasts exactly
 *   `durationSec`, so the output lasts as long as the source. A watermark needs the picture redrawn, so
 *   it re-encodes the video. An audio-only source gives the track in an MP4 container (an `.m4a`,
 *   `audio/mp4`) rather than an error: the API's "audio or video of the dub" has an answer either way.
 * - `aac` (ADTS), `mp3`, `wav` (16-bit): the dubbed track alone, mono at the mix rate.
 * - `tracks_zip`: one WAV per speaker (that speaker's clips alone, full length) and, when ducking, the
 *   ducked source as `background.wav`; the files add up to the mix (but for its limiter).
 * - `clips_zip`: one WAV per clip, as fitted, named by its order, start time and speaker.
 */
export async function renderDub(
  kind: DubRenderKind,
  input: DubRenderInput,
  out: string,
  timeoutMs = 60_000 + Math.ceil(input.durationSec) * 2_000,
): Promise<DubRenderResult> {
  switch (kind) {
    case 'wav':
      await fs.writeFile(out, wavOf(buildDubbedTrack(input), input.sampleRate));
      return { file: out, contentType: 'audio/wav', extension: 'wav' };
    case 'aac':
    case 'mp3':
      await withScratchDir('dub-render-', async (dir) => {
        const wav = path.join(dir, 'track.wav');
        await fs.writeFile(wav, wavOf(buildDubbedTrack(input), input.sampleRate));
        const codec =
          kind === 'aac'
            ? ['-c:a', 'aac', '-b:a', AUDIO_BITRATE, '-f', 'adts']
            : ['-c:a', 'libmp3lame', '-b:a', '192k', '-f', 'mp3'];
        await ffmpeg(['-f', 'wav', '-i', wav, ...codec, '-y', out], timeoutMs);
      });
      return kind === 'aac'
        ? { file: out, contentType: 'audio/aac', extension: 'aac' }
        : { file: out, contentType: 'audio/mpeg', extension: 'mp3' };
    case 'mp4':
      return renderMp4(input, out, timeoutMs);
    case 'tracks_zip':
      await fs.writeFile(out, zipSync(speakerTracks(input), { level: 6 }));
      return { file: out, contentType: 'application/zip', extension: 'zip' };
    case 'clips_zip':
      await fs.writeFile(out, zipSync(clipFiles(input.clips), { level: 6 }));
      return { file: out, contentType: 'application/zip', extension: 'zip' };
  }
}

async function renderMp4(input: DubRenderInput, out: string, timeoutMs: number): Promise<DubRenderResult> {
  const source = await probeMedia(input.sourceFile);
  return withScratchDir('dub-render-', async (dir) => {
    const wav = path.join(dir, 'track.wav');
    await fs.writeFile(wav, wavOf(buildDubbedTrack(input), input.sampleRate));
    const audio = ['-map', '1:a:0', '-c:a', 'aac', '-b:a', AUDIO_BITRATE];
    if (!source.hasVideo) {
      await ffmpeg(
        [
          '-f',
          'wav',
          '-i',
          wav,
          '-map',
          '0:a:0',
          '-c:a',
          'aac',
          '-b:a',
          AUDIO_BITRATE,
          '-movflags',
          '+faststart',
          '-f',
          'mp4',
          '-y',
          out,
        ],
        timeoutMs,
      );
      return { file: out, contentType: 'audio/mp4', extension: 'm4a' };
    }
    let video: string[];
    if (input.watermark) {
      const text = path.join(dir, 'watermark.txt');
      await fs.writeFile(text, input.watermark.replace(/[\r\n]+/g, ' ').slice(0, 80));
      // Text from a file, not inline: drawtext's inline text needs three layers of escaping.
      const draw = [
        `drawtext=fontfile=${filterValue(WATERMARK_FONT)}`,
        `textfile=${filterValue(text)}`,
        // The text as written: `%{…}` in a watermark is not a drawtext expansion.
        'expansion=none',
        'fontsize=max(10\\,h/30)',
        'fontcolor=white@0.6',
        'borderw=1',
        'bordercolor=black@0.4',
        'x=w-tw-h/50',
        'y=h-th-h/50',
      ].join(':');
      video = ['-vf', draw, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p'];
    } else if (source.videoCodec && MP4_VIDEO_CODECS.has(source.videoCodec)) {
      // hvc1: the tag Apple's players need for HEVC in MP4 (ffmpeg writes hev1 by default).
      video = ['-c:v', 'copy', ...(source.videoCodec === 'hevc' ? ['-tag:v', 'hvc1'] : [])];
    } else {
      video = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p'];
    }
    await ffmpeg(
      [
        ...UPLOAD_INPUT_ARGS,
        '-i',
        input.sourceFile,
        '-f',
        'wav',
        '-i',
        wav,
        '-map',
        '0:v:0',
        ...video,
        ...audio,
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        '-y',
        out,
      ],
      timeoutMs * (video.includes('copy') ? 1 : 4),
    );
    return { file: out, contentType: 'video/mp4', extension: 'mp4' };
  });
}

/** tracks_zip's files: one full-length WAV per speaker, and the ducked background. */
function speakerTracks(input: DubMixInput): Zippable {
  const files: Zippable = {};
  const speakers = [...new Set(input.clips.map((c) => c.speaker ?? 'speaker'))];
  for (const speaker of speakers) {
    const clips = input.clips.filter((c) => (c.speaker ?? 'speaker') === speaker);
    const track = buildDubbedTrack({ ...input, background: null, mode: 'drop', clips });
    files[`${safeName(speaker)}.wav`] = wavOf(track, input.sampleRate);
  }
  if (input.mode === 'duck' && input.background) {
    // The background as it sounds in the mix: built with the clips silenced, so it keeps their ducking.
    const silent = input.clips.map((c) => ({ ...c, pcm: new Float32Array(c.pcm.length) }));
    files['background.wav'] = wavOf(buildDubbedTrack({ ...input, clips: silent }), input.sampleRate);
  }
  return files;
}

/** clips_zip's files: `001_00-00-03.250_speaker_0.wav`, in time order. */
function clipFiles(clips: readonly DubClip[]): Zippable {
  const files: Zippable = {};
  const ordered = [...clips].sort((a, b) => a.startSec - b.startSec);
  const width = Math.max(3, String(ordered.length).length);
  ordered.forEach((clip, index) => {
    const name = `${String(index + 1).padStart(width, '0')}_${fileTime(clip.startSec)}_${safeName(clip.speaker ?? 'speaker')}.wav`;
    files[name] = wavOf(clip.pcm, clip.sampleRate);
  });
  return files;
}

/** One subtitle cue of a dub's transcript. */
export interface SubtitleCue {
  startSec: number;
  endSec: number;
  text: string;
  /** Shown as "Name: text" in SRT and as a `<v Name>` voice in WebVTT. */
  speaker?: string;
}

/** `hh:mm:ss,mmm` (SRT) or `hh:mm:ss.mmm` (WebVTT). */
function clockTime(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(Math.max(0, seconds) * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(ms / 3_600_000);
  return `${pad(h)}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** Cues in time order, blank ones dropped, each ending after it starts. */
function orderedCues(cues: readonly SubtitleCue[]): SubtitleCue[] {
  return cues
    .filter((c) => c.text.trim() !== '')
    .sort((a, b) => a.startSec - b.startSec)
    .map((c) => ({ ...c, endSec: Math.max(c.endSec, c.startSec + 0.001) }));
}

/**
 * A dub's segments as SubRip. The dub's segments are already cut at sentences, so a cue is a segment as
 * it is (speech-to-text's transcript-formats.ts cuts words into cues; a platform file cannot import a
 * module's, and the dub has no words to cut). Blank lines inside a text would end the cue: folded.
 */
export function toSrt(cues: readonly SubtitleCue[]): string {
  return orderedCues(cues)
    .map((cue, index) => {
      const prefix = cue.speaker ? `${cue.speaker}: ` : '';
      // "-->" on a text line would read as a timing line.
      const text = `${prefix}${cue.text.trim()}`.replace(/-->/g, '->').replace(/\n\s*\n/g, '\n');
      return `${index + 1}\n${clockTime(cue.startSec, ',')} --> ${clockTime(cue.endSec, ',')}\n${text}\n`;
    })
    .join('\n');
}

/** Cue text in WebVTT: `&`, `<` and `>` as character references (which also rules out "-->"). */
const escapeCue = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A dub's segments as WebVTT, the speaker as a voice tag. */
export function toWebVtt(cues: readonly SubtitleCue[]): string {
  const body = orderedCues(cues).map((cue, index) => {
    const voice = cue.speaker ? `<v ${escapeCue(cue.speaker)}>` : '';
    const text = escapeCue(cue.text.trim()).replace(/\n\s*\n/g, '\n');
    return `${index + 1}\n${clockTime(cue.startSec, '.')} --> ${clockTime(cue.endSec, '.')}\n${voice}${text}\n`;
  });
  return ['WEBVTT\n', ...body].join('\n');
}
