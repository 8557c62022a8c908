import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';

/** How loud a piece of audio is, decoded: enough to tell speech from silence or a click. */
export interface AudioLevel {
  seconds: number;
  /** The whole file's RMS in dBFS (-Infinity for digital silence). */
  rmsDb: number;
  /** The share of 20 ms frames louder than -40 dBFS: speech has most of them, silence none. */
  soundingShare: number;
}

const RATE = 16_000;
const FRAME = RATE / 50;

/**
 * Decodes an audio file (mp3, wav…) with Debian's ffmpeg to 16 kHz mono PCM and measures it. A journey
 * checks with it that what the page played is real audio, not silence or an empty stream.
 */
export function audioLevel(bytes: Uint8Array): AudioLevel {
  const pcm = execFileSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      'pipe:0',
      '-ac',
      '1',
      '-ar',
      String(RATE),
      '-f',
      's16le',
      'pipe:1',
    ],
    { input: bytes, maxBuffer: 256 * 1024 * 1024 },
  );
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.byteLength / 2));
  const db = (sumOfSquares: number, count: number) =>
    10 * Math.log10(sumOfSquares / Math.max(1, count) / 32768 ** 2);
  let total = 0;
  let frames = 0;
  let sounding = 0;
  for (let start = 0; start + FRAME <= samples.length; start += FRAME) {
    let frame = 0;
    for (let i = start; i < start + FRAME; i += 1) frame += (samples[i] ?? 0) ** 2;
    total += frame;
    frames += 1;
    if (db(frame, FRAME) > -40) sounding += 1;
  }
  return {
    seconds: samples.length / RATE,
    rmsDb: db(total, frames * FRAME),
    soundingShare: frames === 0 ? 0 : sounding / frames,
  };
}

/**
 * The bytes the page's bottom player is playing now, from its `<audio>` source: a data: URL (a voice
 * design's preview) decoded here, since the page's content security policy lets it play one but not
 * fetch it; a blob: or same-origin URL fetched in the page.
 */
export async function playingAudio(page: Page): Promise<Uint8Array> {
  const source = await page.evaluate(() => document.querySelector('audio')?.currentSrc ?? '');
  if (!source) throw new Error('The page has no audio source.');
  const data = /^data:[^,]*;base64,(.*)$/s.exec(source);
  if (data) return Buffer.from(data[1] ?? '', 'base64');
  const base64 = await page.evaluate(async (url) => {
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }, source);
  return Buffer.from(base64, 'base64');
}
