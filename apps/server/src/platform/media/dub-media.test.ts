import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMediaFile } from '../../test/test-signals';
import {
  extractMixAudio,
  extractSpeechAudio,
  MIX_SAMPLE_RATE,
  NO_AUDIO_TO_DUB_MESSAGE,
  probeMedia,
  trimMedia,
} from './dub-media';

let dir: string;
/** 4 s of 25 fps video (a keyframe each second) with a 1 kHz beep from 2.0 to 2.5 s and silence elsewhere. */
let video: string;
let silentVideo: string;

/** Makes a file with ffmpeg from lavfi sources. */
async function makeMedia(file: string, args: string[]): Promise<string> {
  await fs.writeFile(file, await makeMediaFile(path.basename(file), args));
  return file;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-dub-media-'));
  video = await makeMedia(path.join(dir, 'beep.mp4'), [
    ...['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=25:duration=4'],
    ...['-f', 'lavfi', '-i', "aevalsrc='if(between(t,2,2.5),0.5*sin(2*PI*1000*t),0)':s=48000:d=4"],
    ...['-c:v', 'libx264', '-g', '25', '-keyint_min', '25', '-sc_threshold', '0', '-c:a', 'aac'],
  ]);
  silentVideo = await makeMedia(path.join(dir, 'silent.mp4'), [
    ...['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=2', '-c:v', 'libx264'],
  ]);
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** The first sample above `level`, in seconds. */
const onsetSec = (pcm: Float32Array, rate: number, level = 0.05) =>
  pcm.findIndex((x) => Math.abs(x) > level) / rate;

describe('probeMedia', () => {
  it('gives the facts a dub needs', async () => {
    const info = await probeMedia(video);
    expect(info).toMatchObject({
      hasAudio: true,
      hasVideo: true,
      videoCodec: 'h264',
      audioCodec: 'aac',
      width: 64,
      height: 48,
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    });
    expect(Math.abs(info.durationSec - 4) / 4).toBeLessThan(0.02);
    expect(await probeMedia(silentVideo)).toMatchObject({ hasAudio: false, hasVideo: true });
  });
});

describe('extracting the sound', () => {
  it('gives mono 16 kHz speech audio and Float32 mix audio of the whole length', async () => {
    const speech = await extractSpeechAudio(video, path.join(dir, 'speech.wav'));
    expect(speech).toMatchObject({ sampleRate: 16_000, channels: 1 });
    expect(Math.abs(speech.samples.length / 16_000 - 4) / 4).toBeLessThan(0.02);
    const mix = await extractMixAudio(video);
    expect(Math.abs(mix.length / MIX_SAMPLE_RATE - 4) / 4).toBeLessThan(0.02);
    expect(Math.abs(onsetSec(mix, MIX_SAMPLE_RATE) - 2)).toBeLessThan(0.02);
  });

  it('refuses a video with no audio track, with the message the dub fails with', async () => {
    await expect(extractSpeechAudio(silentVideo, path.join(dir, 'x.wav'))).rejects.toThrow(
      NO_AUDIO_TO_DUB_MESSAGE,
    );
    await expect(extractMixAudio(silentVideo)).rejects.toThrow(NO_AUDIO_TO_DUB_MESSAGE);
    await expect(trimMedia(silentVideo, path.join(dir, 'x.mov'), { startSec: 1 })).rejects.toMatchObject({
      code: 'unsupported_media_type',
      message: NO_AUDIO_TO_DUB_MESSAGE,
    });
  });
});

describe('trimMedia', () => {
  it('copies the video when the range starts on a keyframe and runs to the end, keeping the sound in sync', async () => {
    const out = path.join(dir, 'cut-key.mov');
    const cut = await trimMedia(video, out, { startSec: 1 });
    expect(cut).toEqual({ durationSec: 3, videoCopied: true });
    const info = await probeMedia(out);
    expect(Math.abs(info.durationSec - 3) / 3).toBeLessThan(0.02);
    expect(info.videoCodec).toBe('h264');
    // The beep at 2.0 s of the source is at 1.0 s of the cut.
    expect(Math.abs(onsetSec(await extractMixAudio(out), MIX_SAMPLE_RATE) - 1)).toBeLessThan(0.02);
  });

  it('re-encodes the video when the range starts between keyframes or ends early, cutting sound and picture alike', async () => {
    const out = path.join(dir, 'cut-mid.mov');
    const cut = await trimMedia(video, out, { startSec: 1.24, endSec: 3.5 });
    expect(cut.videoCopied).toBe(false);
    expect(cut.durationSec).toBeCloseTo(2.26, 6);
    const info = await probeMedia(out);
    expect(Math.abs(info.durationSec - 2.26) / 2.26).toBeLessThan(0.02);
    expect(Math.abs(onsetSec(await extractMixAudio(out), MIX_SAMPLE_RATE) - 0.76)).toBeLessThan(0.02);
    // A keyframe start with an early end is re-encoded too (a copy's end overruns by reordered frames).
    const early = await trimMedia(video, path.join(dir, 'cut-early.mov'), { startSec: 1, endSec: 3.5 });
    expect(early.videoCopied).toBe(false);
    const earlyInfo = await probeMedia(path.join(dir, 'cut-early.mov'));
    expect(Math.abs(earlyInfo.durationSec - 2.5) / 2.5).toBeLessThan(0.02);
  });

  it('refuses a range that holds nothing of the source', async () => {
    await expect(trimMedia(video, path.join(dir, 'none.mov'), { startSec: 5 })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });
});
