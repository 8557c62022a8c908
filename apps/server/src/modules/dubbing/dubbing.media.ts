import fs from 'node:fs/promises';
import { encodeWav as encodePcmWav, parseWav } from '@parla/audio';
import type { RenderType } from '@parla/contracts';
import { AppError } from '../../platform/errors';
import {
  extractMixAudio,
  extractSpeechAudio,
  MIX_SAMPLE_RATE,
  trimMedia,
} from '../../platform/media/dub-media';
import { type DubClip, fitToSlot } from '../../platform/media/dub-mix';
import { renderDub, toSrt, toWebVtt } from '../../platform/media/dub-render';
import { runMediaTool } from '../../platform/media/run-media-tool';

/*
 * The dub's media steps over the platform's media functions (platform/media/dub-*.ts): where a clip may
 * run past its slot, and the files the stages keep.
 */

export { toSrt, toWebVtt };

/** A clip may run this far into the next segment's time before it is cut (with a fade). */
const OVERLAP_ALLOWED_SEC = 0.1;
const FADE_SEC = 0.04;

/** The source cut to the API's start/end time, as the dub's working copy (a QuickTime file, video kept). */
export async function trimSource(file: string, out: string, range: { startSec: number; endSec: number }) {
  return trimMedia(file, out, range);
}

/** The source's sound as the recogniser hears it: mono 16 kHz WAV at `out`. */
export async function extractSpeech(source: string, out: string): Promise<void> {
  await extractSpeechAudio(source, out, 16_000);
}

/** A mono WAV file as floats. */
export async function decodeWav(file: string): Promise<{ sampleRate: number; samples: Float32Array }> {
  const pcm = parseWav(await fs.readFile(file));
  const samples = new Float32Array(pcm.samples.length / pcm.channels);
  for (let i = 0; i < samples.length; i++) samples[i] = (pcm.samples[i * pcm.channels] ?? 0) / 32768;
  return { sampleRate: pcm.sampleRate, samples };
}

/** Floats → a 16-bit mono WAV. */
export function encodeWav(pcm: Float32Array, sampleRate: number): Buffer {
  const samples = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++)
    samples[i] = Math.round(Math.max(-1, Math.min(1, pcm[i] ?? 0)) * 32767);
  return encodePcmWav({ sampleRate, channels: 1, samples });
}

/** The engine's speech fitted to its slot (dub-mix.ts fitToSlot: 0.9–1.4×, pitch kept). */
export async function fitClip(speech: { sampleRate: number; samples: Int16Array }, slotSec: number) {
  const floats = new Float32Array(speech.samples.length);
  for (let i = 0; i < floats.length; i++) floats[i] = (speech.samples[i] ?? 0) / 32768;
  const fitted = await fitToSlot(floats, speech.sampleRate, slotSec);
  return {
    pcm: fitted.pcm,
    sampleRate: speech.sampleRate,
    tempo: fitted.tempo,
    overflowSec: fitted.overflowSec,
  };
}

/** A span of the source's sound as a 16 kHz mono WAV (the editor's re-transcription of one segment). */
export async function cutAudio(source: string, out: string, startSec: number, endSec: number): Promise<void> {
  const result = await runMediaTool(
    'ffmpeg',
    [
      '-v',
      'error',
      '-nostdin',
      '-ss',
      String(startSec),
      '-t',
      String(Math.max(0.1, endSec - startSec)),
      '-i',
      source,
      '-map',
      '0:a:0',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      '-y',
      out,
    ],
    { timeoutMs: 60_000 },
  );
  if (result.exit.code !== 0)
    throw new AppError('bad_request', 'The segment’s sound could not be read from the source.');
}

/**
 * Cuts each clip where the next one starts (plus a tenth of a second), fading out: speech that still ran
 * past its slot at the fastest tempo may spill into the pause after it, never over the next speaker.
 */
export function boundClips(clips: DubClip[], durationSec: number): DubClip[] {
  const sorted = [...clips].sort((a, b) => a.startSec - b.startSec);
  return sorted.map((clip, i) => {
    const next = sorted[i + 1]?.startSec ?? durationSec;
    const room = Math.max(0.05, next + OVERLAP_ALLOWED_SEC - clip.startSec);
    const keep = Math.min(clip.pcm.length, Math.floor(room * clip.sampleRate));
    if (keep >= clip.pcm.length) return clip;
    const pcm = clip.pcm.slice(0, keep);
    const fade = Math.min(keep, Math.floor(FADE_SEC * clip.sampleRate));
    for (let j = 0; j < fade; j++) pcm[keep - 1 - j] = (pcm[keep - 1 - j] ?? 0) * (j / fade);
    return { ...clip, pcm };
  });
}

/** One language of the dub rendered as `type` into `out`. */
export async function renderLanguage(input: {
  source: string;
  isVideo: boolean;
  durationSec: number;
  clips: { startSec: number; file: string; speaker: string }[];
  drop: boolean;
  watermark: boolean;
  type: RenderType;
  out: string;
}): Promise<{ file: string; contentType: string; durationSec: number; extension: string }> {
  if (input.type === 'aaf' || input.type === 'zip')
    throw new AppError('bad_request', `Parla does not render ${input.type}.`);
  const clips: DubClip[] = [];
  for (const clip of input.clips) {
    const wav = await decodeWav(clip.file);
    clips.push({
      startSec: clip.startSec,
      pcm: wav.samples,
      sampleRate: wav.sampleRate,
      speaker: clip.speaker,
    });
  }
  const background = input.drop ? null : await extractMixAudio(input.source, MIX_SAMPLE_RATE);
  const made = await renderDub(
    input.type,
    {
      background,
      sampleRate: MIX_SAMPLE_RATE,
      durationSec: input.durationSec,
      clips: boundClips(clips, input.durationSec),
      mode: input.drop ? 'drop' : 'duck',
      sourceFile: input.source,
      ...(input.watermark && input.isVideo ? { watermark: 'Parla' } : {}),
    },
    input.out,
  );
  return {
    file: made.file,
    contentType: made.contentType,
    durationSec: input.durationSec,
    extension: made.extension,
  };
}
