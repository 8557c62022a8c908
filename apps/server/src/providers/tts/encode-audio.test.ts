import { describeOutputFormat, OUTPUT_FORMATS } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { probeAudio } from '../../test/audio-probe';
import { createStreamEncoder, encodeAudio } from './encode-audio';

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

describe('createStreamEncoder', () => {
  /** A tone of `seconds` at 16 kHz, like flite's output. */
  const tone = (seconds: number) =>
    new Int16Array(Math.round(16_000 * seconds)).map((_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16_000)),
    );

  it.each(['mp3_44100_128', 'pcm_16000', 'opus_48000_64'] as const)(
    '%s: a short first sentence is encoded out before the next one comes',
    async (format) => {
      const encoder = createStreamEncoder(format);
      const chunks: Buffer[] = [];
      encoder.output.on('data', (chunk: Buffer) => chunks.push(chunk));
      // 0.4 s, far less than the 64 KB ffmpeg's WAV reader would wait for.
      const first = tone(0.4);
      const copy = first.slice();
      encoder.write(first, 16_000);
      await expect.poll(() => chunks.length, { timeout: 3000 }).toBeGreaterThan(0);
      expect(first).toEqual(copy); // the caller's samples are left as they were
      encoder.write(tone(0.6), 16_000);
      encoder.end();
      await encoder.done;
      const spec = describeOutputFormat(format);
      if (spec.codec === 'pcm') {
        expect(Buffer.concat(chunks).length / 2 / spec.sampleRate).toBeCloseTo(1, 2);
      } else {
        const info = probeAudio(Buffer.concat(chunks));
        expect(info.sampleRate).toBe(spec.sampleRate);
        expect(info.seconds).toBeGreaterThan(0.95);
        expect(info.seconds).toBeLessThan(1.1);
      }
    },
  );

  it('refuses samples at another rate than the first', () => {
    const encoder = createStreamEncoder('mp3_44100_128');
    encoder.write(tone(0.1), 16_000);
    expect(() => encoder.write(tone(0.1), 22_050)).toThrow('16000 Hz');
    encoder.kill();
  });
});
