import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  downmix,
  floatToPcm16,
  meterLevel,
  pcm16ToFloat,
  StreamResampler,
  socketUrl,
} from './realtime-rules';

describe('socketUrl', () => {
  it('turns the page origin into ws or wss with the query', () => {
    expect(
      socketUrl('http://127.0.0.1:8100', '/v1/speech-to-text/realtime', { token: 'a b', x: undefined }),
    ).toBe('ws://127.0.0.1:8100/v1/speech-to-text/realtime?token=a+b');
    expect(socketUrl('https://parla.example', '/v1/x', { n: 3, ok: true })).toBe(
      'wss://parla.example/v1/x?n=3&ok=true',
    );
  });
});

describe('base64', () => {
  it('round-trips every byte value and long buffers', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 7) % 256);
    const text = bytesToBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(base64ToBytes(text)).toEqual(bytes);
    expect(bytesToBase64(new Uint8Array(0))).toBe('');
  });
  it('refuses text that is not base64', () => {
    expect(() => base64ToBytes('not base64!')).toThrow();
  });
});

describe('16-bit PCM', () => {
  it('writes little-endian signed samples, clipped', () => {
    const bytes = floatToPcm16(Float32Array.from([0, 1, -1, 0.5, 2, -3]));
    const view = new DataView(bytes.buffer);
    expect([0, 1, 2, 3, 4, 5].map((i) => view.getInt16(i * 2, true))).toEqual([
      0, 32767, -32768, 16384, 32767, -32768,
    ]);
    expect(bytes[2]).toBe(0xff);
    expect(bytes[3]).toBe(0x7f);
  });
  it('reads what it writes, to within one step', () => {
    const samples = Float32Array.from({ length: 500 }, (_, i) => Math.sin(i / 7) * 0.9);
    const back = pcm16ToFloat(floatToPcm16(samples));
    for (let i = 0; i < samples.length; i++)
      expect(Math.abs((back[i] ?? 0) - (samples[i] ?? 0))).toBeLessThan(1 / 16000);
  });
  it('reads a PCM slice at an offset and ignores an odd last byte', () => {
    const buffer = new Uint8Array([9, 0x00, 0x40, 0x00, 0xc0, 7]);
    expect(Array.from(pcm16ToFloat(buffer.subarray(1)))).toEqual([0.5, -0.5]);
  });
});

describe('downmix and level', () => {
  it('averages the channels', () => {
    expect(Array.from(downmix([Float32Array.from([1, 0.5]), Float32Array.from([0, -0.5])]))).toEqual([
      0.5, 0,
    ]);
    expect(downmix([])).toHaveLength(0);
  });
  it('measures silence as 0 and a loud tone near full', () => {
    expect(meterLevel(new Float32Array(128))).toBe(0);
    expect(meterLevel(Float32Array.from({ length: 480 }, (_, i) => Math.sin(i / 3)))).toBe(1);
  });
});

describe('StreamResampler', () => {
  const tone = (rate: number, hz: number, seconds: number) =>
    Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
      Math.sin((2 * Math.PI * hz * i) / rate),
    );

  it('makes a third as many samples from 48 kHz to 16 kHz, in any block sizes, with no seam', () => {
    const input = tone(48_000, 440, 1);
    const whole = new StreamResampler(48_000, 16_000).push(input);
    expect(whole.length).toBe(16_000);
    const blocked = new StreamResampler(48_000, 16_000);
    const parts: number[] = [];
    for (let at = 0; at < input.length; at += 128) parts.push(...blocked.push(input.subarray(at, at + 128)));
    expect(parts.length).toBe(16_000);
    for (let i = 0; i < parts.length; i++) expect(parts[i]).toBeCloseTo(whole[i] ?? 0, 5);
  });

  it('keeps a speech-band tone: the output matches the tone at the new rate', () => {
    const out = new StreamResampler(48_000, 16_000).push(tone(48_000, 300, 0.5));
    const expected = tone(16_000, 300, 0.5);
    // The box filter averages three samples, centred one input sample later: a small lag and damping.
    let error = 0;
    for (let i = 10; i < out.length - 10; i++) {
      const centre = Math.sin((2 * Math.PI * 300 * (i * 3 + 1)) / 48_000);
      error = Math.max(error, Math.abs((out[i] ?? 0) - centre));
    }
    expect(out.length).toBe(expected.length);
    expect(error).toBeLessThan(0.01);
  });

  it('resamples 44.1 kHz to 16 kHz at the right count over many blocks', () => {
    const resampler = new StreamResampler(44_100, 16_000);
    let count = 0;
    for (let block = 0; block < 100; block++) count += resampler.push(new Float32Array(441)).length;
    expect(Math.abs(count - 16_000)).toBeLessThanOrEqual(1);
  });

  it('interpolates when upsampling, across blocks', () => {
    const resampler = new StreamResampler(8_000, 16_000);
    const out = [...resampler.push(Float32Array.from([0, 1])), ...resampler.push(Float32Array.from([0]))];
    expect(out).toEqual([0, 0.5, 1, 0.5, 0]);
  });

  it('passes the same rate through', () => {
    const input = Float32Array.from([0.1, 0.2]);
    expect(Array.from(new StreamResampler(16_000, 16_000).push(input))).toEqual(Array.from(input));
  });
});
