import { describeOutputFormat, OUTPUT_FORMATS } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { probeAudio } from '../../test/audio-probe';
import { encodeAudio } from './encode-audio';

/** 1.5 s of a 440 Hz tone at 22.05 kHz, like an engine's output. */
const sampleRate = 22050;
const samples = new Int16Array(Math.round(sampleRate * 1.5)).map((_, i) =>
  Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)),
);

describe('encodeAudio', () => {
  it.each(
    OUTPUT_FORMATS.filter((f) => !f.startsWith('pcm') && !f.startsWith('ulaw') && !f.startsWith('alaw')),
  )('%s decodes to its codec, rate and length', async (format) => {
    const spec = describeOutputFormat(format);
    const info = probeAudio(await encodeAudio({ sampleRate, channels: 1, samples }, format));
    expect(info.codec).toBe({ mp3: 'mp3', opus: 'opus', wav: 'pcm_s16le' }[spec.codec as string]);
    expect(info.sampleRate).toBe(spec.sampleRate);
    expect(info.channels).toBe(1);
    expect(info.seconds).toBeGreaterThan(1.4);
    expect(info.seconds).toBeLessThan(1.65);
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
