import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeOutputFormat, OUTPUT_FORMATS } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { encodeAudio } from './encode-audio';

/** 1.5 s of a 440 Hz tone at 22.05 kHz, like an engine's output. */
const sampleRate = 22050;
const samples = new Int16Array(Math.round(sampleRate * 1.5)).map((_, i) =>
  Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)),
);

function probe(bytes: Buffer) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parla-enc-')), 'x');
  fs.writeFileSync(file, bytes);
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,sample_rate,channels:format=duration',
    '-of',
    'json',
    file,
  ]).toString();
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return JSON.parse(out) as {
    streams: { codec_name: string; sample_rate: string; channels: number }[];
    format: { duration?: string };
  };
}

describe('encodeAudio', () => {
  it.each(
    OUTPUT_FORMATS.filter((f) => !f.startsWith('pcm') && !f.startsWith('ulaw') && !f.startsWith('alaw')),
  )('%s decodes to its codec, rate and length', async (format) => {
    const spec = describeOutputFormat(format);
    const info = probe(await encodeAudio({ sampleRate, channels: 1, samples }, format));
    const stream = info.streams[0];
    expect(stream?.codec_name).toBe({ mp3: 'mp3', opus: 'opus', wav: 'pcm_s16le' }[spec.codec as string]);
    expect(Number(stream?.sample_rate)).toBe(spec.sampleRate);
    expect(stream?.channels).toBe(1);
    expect(Number(info.format.duration)).toBeGreaterThan(1.4);
    expect(Number(info.format.duration)).toBeLessThan(1.65);
  });

  it.each(OUTPUT_FORMATS.filter((f) => f.startsWith('pcm') || f.startsWith('ulaw') || f.startsWith('alaw')))(
    '%s is raw samples of the right count',
    async (format) => {
      const spec = describeOutputFormat(format);
      const bytes = await encodeAudio({ sampleRate, channels: 1, samples }, format);
      const bytesPerSample = spec.codec === 'pcm' ? 2 : 1;
      expect(bytes.length / bytesPerSample / spec.sampleRate).toBeCloseTo(1.5, 1);
    },
  );
});
