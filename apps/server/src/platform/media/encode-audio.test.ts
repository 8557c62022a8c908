import { parseWav } from '@parla/audio';
import { describeOutputFormat, OUTPUT_FORMATS } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { probeAudio } from '../../test/audio-probe';
import { createStreamEncoder, decodeToWav, encodeAudio } from './encode-audio';
import { encodesInProcess } from './inprocess-encoder';

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

  it.each(['mp3_44100_128', 'pcm_16000', 'pcm_44100', 'ulaw_8000', 'opus_48000_64', 'wav_22050'] as const)(
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
      if (spec.codec === 'pcm' || spec.codec === 'ulaw') {
        const bytesPerSample = spec.codec === 'pcm' ? 2 : 1;
        expect(Buffer.concat(chunks).length / bytesPerSample / spec.sampleRate).toBeCloseTo(1, 2);
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

  /** Zero crossings upwards per second: a pure tone's frequency. */
  const frequency = (samples: Int16Array, rate: number) => {
    let crossings = 0;
    for (let i = 1; i < samples.length; i += 1)
      if ((samples[i - 1] as number) < 0 && (samples[i] as number) >= 0) crossings += 1;
    return crossings / (samples.length / rate);
  };
  const rms = (samples: Int16Array) =>
    Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / Math.max(1, samples.length));

  it.each(OUTPUT_FORMATS.filter((f) => encodesInProcess(f)))(
    '%s is encoded in process: the tone comes back at its pitch, level and length',
    async (format) => {
      const spec = describeOutputFormat(format);
      const encoder = createStreamEncoder(format);
      const chunks: Buffer[] = [];
      encoder.output.on('data', (chunk: Buffer) => chunks.push(chunk));
      // Uneven pieces, as sentences come.
      for (const seconds of [0.25, 0.5, 0.75]) encoder.write(tone(seconds), 16_000);
      encoder.end();
      await encoder.done;
      const decoded = parseWav(await decodeToWav(Buffer.concat(chunks), format));
      expect(decoded.sampleRate).toBe(spec.sampleRate);
      const seconds = decoded.samples.length / decoded.sampleRate;
      // MP3 adds its encoder delay and pads the last frame; the raw formats are exact.
      if (spec.codec === 'mp3') expect(seconds).toBeGreaterThan(1.49);
      else expect(seconds).toBeCloseTo(1.5, 2);
      expect(seconds).toBeLessThan(1.62);
      // Away from the edges: a 440 Hz tone of 8000 (RMS 5657), within the codecs' error (an MP3 of it
      // decodes 5.0% lower, from ffmpeg's own encoder too).
      const middle = decoded.samples.subarray(
        Math.round(0.2 * decoded.sampleRate),
        Math.round(1.3 * decoded.sampleRate),
      );
      expect(frequency(middle, decoded.sampleRate)).toBeCloseTo(440, -1);
      expect(Math.abs(rms(middle) / (8000 * Math.SQRT1_2) - 1)).toBeLessThan(0.055);
    },
  );

  it('an in-process encoding that fails rejects done and ends its output, with no error event', async () => {
    const encoder = createStreamEncoder('mp3_44100_128');
    // No 'error' listener here: one emitted would fail the test as an uncaught error.
    const ended = new Promise((resolve) => encoder.output.once('end', resolve));
    encoder.output.resume();
    encoder.write(tone(0.1), 1); // a rate LAME refuses
    encoder.end();
    await expect(encoder.done).rejects.toThrow();
    await ended;
  });

  it('a stopped in-process stream ends its output, and its end is refused', async () => {
    const encoder = createStreamEncoder('mp3_44100_128');
    const ended = new Promise((resolve) => encoder.output.once('end', resolve));
    encoder.output.resume();
    encoder.write(tone(0.5), 16_000);
    encoder.kill();
    await ended;
    await expect(encoder.done).rejects.toThrow('stopped');
    // The next stream may get the stopped one's LAME instance: it starts afresh.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const next = createStreamEncoder('mp3_22050_32');
    const chunks: Buffer[] = [];
    next.output.on('data', (chunk: Buffer) => chunks.push(chunk));
    next.write(tone(1), 16_000);
    next.end();
    await next.done;
    const decoded = parseWav(await decodeToWav(Buffer.concat(chunks), 'mp3_22050_32'));
    expect(decoded.sampleRate).toBe(22_050);
    expect(decoded.samples.length / 22_050).toBeGreaterThan(0.99);
    expect(decoded.samples.length / 22_050).toBeLessThan(1.1);
  });
});
