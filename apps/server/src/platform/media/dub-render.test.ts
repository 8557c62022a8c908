import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseWav } from '@parla/audio';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMediaFile } from '../../test/test-signals';
import { extractMixAudio, MIX_SAMPLE_RATE, probeMedia } from './dub-media';
import type { DubClip } from './dub-mix';
import { type DubRenderInput, renderDub, toSrt, toWebVtt } from './dub-render';
import { runMediaTool } from './run-media-tool';

let dir: string;
let video: string;
let audioOnly: string;
let vp8Video: string;

/** A 24 kHz tone of `seconds`, as a TTS clip would come. */
function clipTone(seconds: number, frequency: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * 24_000));
  for (let i = 0; i < out.length; i += 1) out[i] = 0.4 * Math.sin((2 * Math.PI * frequency * i) / 24_000);
  return out;
}

const clips: DubClip[] = [
  { startSec: 0.5, pcm: clipTone(0.6, 500), sampleRate: 24_000, speaker: 'speaker_0' },
  { startSec: 1.8, pcm: clipTone(0.5, 800), sampleRate: 24_000, speaker: 'Ana María' },
  { startSec: 2.4, pcm: clipTone(0.4, 600), sampleRate: 24_000, speaker: 'speaker_0' },
];

/** The md5 of a file's first video stream's packets, as they are (no decoding). */
async function videoStreamMd5(file: string): Promise<string> {
  const { stdout, exit } = await runMediaTool(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-'],
    { timeoutMs: 30_000 },
  );
  expect(exit.code).toBe(0);
  return stdout.toString().trim();
}

/** Each source's sound and length, read once. */
const sources = new Map<string, Promise<{ background: Float32Array; durationSec: number }>>();

async function input(sourceFile: string, mode: 'duck' | 'drop' = 'duck'): Promise<DubRenderInput> {
  let source = sources.get(sourceFile);
  if (!source) {
    source = (async () => ({
      background: await extractMixAudio(sourceFile),
      durationSec: (await probeMedia(sourceFile)).durationSec,
    }))();
    sources.set(sourceFile, source);
  }
  return { sourceFile, ...(await source), sampleRate: MIX_SAMPLE_RATE, clips, mode };
}

/** Makes a file with ffmpeg from lavfi sources. */
async function makeMedia(file: string, args: string[]): Promise<string> {
  await fs.writeFile(file, await makeMediaFile(path.basename(file), args));
  return file;
}

const within2Percent = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected) / expected).toBeLessThan(0.02);

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-dub-render-'));
  const picture = ['-f', 'lavfi', '-i', 'testsrc=size=96x64:rate=25:duration=3'];
  const sound = ['-f', 'lavfi', '-i', 'sine=frequency=200:sample_rate=48000:duration=3'];
  video = await makeMedia(path.join(dir, 'source.mp4'), [
    ...picture,
    ...sound,
    '-c:v',
    'libx264',
    '-c:a',
    'aac',
  ]);
  audioOnly = await makeMedia(path.join(dir, 'source.mp3'), [...sound, '-c:a', 'libmp3lame']);
  vp8Video = await makeMedia(path.join(dir, 'source.webm'), [
    ...picture,
    ...sound,
    '-c:v',
    'libvpx',
    '-c:a',
    'libopus',
  ]);
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('renderDub mp4', () => {
  it('copies the video stream bit for bit, with the dubbed track in AAC, as long as the source', async () => {
    const out = path.join(dir, 'dub.mp4');
    const result = await renderDub('mp4', await input(video), out);
    expect(result).toEqual({ file: out, contentType: 'video/mp4', extension: 'mp4' });
    const info = await probeMedia(out);
    expect(info).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', width: 96, height: 64 });
    within2Percent(info.durationSec, 3);
    expect(await videoStreamMd5(out)).toBe(await videoStreamMd5(video));
    // The new track is in it: the first dubbed clip starts at 0.5 s (drop mode: nothing before it).
    const dropped = path.join(dir, 'dropped.mp4');
    await renderDub('mp4', await input(video, 'drop'), dropped);
    const track = await extractMixAudio(dropped);
    const onset = track.findIndex((x) => Math.abs(x) > 0.05) / MIX_SAMPLE_RATE;
    expect(Math.abs(onset - 0.5)).toBeLessThan(0.02);
  });

  it('re-encodes a video codec MP4 does not hold, and draws a watermark', async () => {
    const out = path.join(dir, 'vp8.mp4');
    await renderDub('mp4', await input(vp8Video), out);
    const info = await probeMedia(out);
    expect(info.videoCodec).toBe('h264');
    within2Percent(info.durationSec, 3);
    const marked = path.join(dir, 'marked.mp4');
    await renderDub('mp4', { ...(await input(video)), watermark: "Parla: 'dub' 100% %{pts}" }, marked);
    within2Percent((await probeMedia(marked)).durationSec, 3);
    expect(await videoStreamMd5(marked)).not.toBe(await videoStreamMd5(video));
  });

  it('gives an m4a for an audio-only source', async () => {
    const out = path.join(dir, 'audio.m4a');
    const result = await renderDub('mp4', await input(audioOnly), out);
    expect(result).toMatchObject({ contentType: 'audio/mp4', extension: 'm4a' });
    const info = await probeMedia(out);
    expect(info).toMatchObject({ hasVideo: false, audioCodec: 'aac' });
    within2Percent(info.durationSec, 3);
  });
});

describe('renderDub audio', () => {
  it.each([
    ['aac', 'aac', 'audio/aac'],
    ['mp3', 'mp3', 'audio/mpeg'],
    ['wav', 'pcm_s16le', 'audio/wav'],
  ] as const)('renders %s', async (kind, codec, contentType) => {
    const out = path.join(dir, `dub.${kind}`);
    const result = await renderDub(kind, await input(video), out);
    expect(result.contentType).toBe(contentType);
    expect((await probeMedia(out)).audioCodec).toBe(codec);
    // What it decodes to (ffprobe only estimates a bare AAC stream's length from its bitrate).
    within2Percent((await extractMixAudio(out)).length / MIX_SAMPLE_RATE, 3);
  });
});

describe('renderDub zips', () => {
  it('gives one full-length track per speaker and the ducked background', async () => {
    const out = path.join(dir, 'tracks.zip');
    await renderDub('tracks_zip', await input(video), out);
    const files = unzipSync(await fs.readFile(out));
    expect(Object.keys(files).sort()).toEqual(['Ana_María.wav', 'background.wav', 'speaker_0.wav']);
    for (const bytes of Object.values(files)) {
      const wav = parseWav(bytes);
      expect(wav.sampleRate).toBe(MIX_SAMPLE_RATE);
      within2Percent(wav.samples.length / MIX_SAMPLE_RATE, 3);
    }
    // Ana María speaks only from 1.8 s.
    const ana = parseWav(files['Ana_María.wav'] as Uint8Array).samples;
    const first = ana.findIndex((x) => Math.abs(x) > 300) / MIX_SAMPLE_RATE;
    expect(Math.abs(first - 1.8)).toBeLessThan(0.02);
    // drop: no background file.
    await renderDub('tracks_zip', await input(video, 'drop'), out);
    expect(Object.keys(unzipSync(await fs.readFile(out))).sort()).toEqual(['Ana_María.wav', 'speaker_0.wav']);
  });

  it('gives one wav per clip named by start time and speaker', async () => {
    const out = path.join(dir, 'clips.zip');
    await renderDub('clips_zip', await input(video), out);
    const files = unzipSync(await fs.readFile(out));
    expect(Object.keys(files)).toEqual([
      '001_00-00-00.500_speaker_0.wav',
      '002_00-00-01.800_Ana_María.wav',
      '003_00-00-02.400_speaker_0.wav',
    ]);
    const second = parseWav(files['002_00-00-01.800_Ana_María.wav'] as Uint8Array);
    expect(second.sampleRate).toBe(24_000);
    expect(second.samples.length).toBe(12_000);
  });
});

describe('subtitles', () => {
  const cues = [
    { startSec: 63.5, endSec: 65.25, text: 'Second <line> & more', speaker: 'Ana' },
    { startSec: 0.04, endSec: 2, text: 'First --> line' },
    { startSec: 3, endSec: 4, text: '   ' },
  ];

  it('writes SRT', () => {
    expect(toSrt(cues)).toBe(
      '1\n00:00:00,040 --> 00:00:02,000\nFirst -> line\n\n2\n00:01:03,500 --> 00:01:05,250\nAna: Second <line> & more\n',
    );
  });

  it('writes WebVTT with the speaker as a voice', () => {
    expect(toWebVtt(cues)).toBe(
      'WEBVTT\n\n1\n00:00:00.040 --> 00:00:02.000\nFirst --&gt; line\n\n2\n00:01:03.500 --> 00:01:05.250\n<v Ana>Second &lt;line&gt; &amp; more\n',
    );
  });
});
