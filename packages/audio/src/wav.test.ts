import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationSeconds, encodeWav, parseWav, WavFormatError } from './wav';

describe('WAV', () => {
  it('round-trips any 16-bit PCM', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 }),
        fc.constantFrom(8000, 16000, 22050, 44100, 48000),
        fc.array(fc.integer({ min: -32768, max: 32767 }), { maxLength: 400 }),
        (channels, sampleRate, values) => {
          const samples = Int16Array.from(values.slice(0, values.length - (values.length % channels)));
          const parsed = parseWav(encodeWav({ sampleRate, channels, samples }));
          expect(parsed).toEqual({ sampleRate, channels, samples });
        },
      ),
    );
  });

  it('writes a file ffmpeg reads with the same rate, channels and length', () => {
    const samples = new Int16Array(16000).map((_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)),
    );
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parla-wav-')), 'tone.wav');
    fs.writeFileSync(file, encodeWav({ sampleRate: 16000, channels: 1, samples }));
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file], { encoding: 'utf8' }),
    ) as { streams: { sample_rate: string; channels: number; duration: string; codec_name: string }[] };
    expect(probe.streams[0]).toMatchObject({
      sample_rate: '16000',
      channels: 1,
      codec_name: 'pcm_s16le',
      duration: '1.000000',
    });
    expect(durationSeconds(parseWav(fs.readFileSync(file)))).toBe(1);
  });

  it('reads what ffmpeg writes (with its LIST chunk)', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parla-wav-')), 'ffmpeg.wav');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=300:duration=0.5',
      '-ar',
      '22050',
      '-ac',
      '2',
      file,
    ]);
    const audio = parseWav(fs.readFileSync(file));
    expect(audio).toMatchObject({ sampleRate: 22050, channels: 2 });
    expect(durationSeconds(audio)).toBeCloseTo(0.5, 2);
  });

  it('rejects what is not a 16-bit PCM WAV, whatever the bytes', () => {
    expect(() => parseWav(Buffer.from('ID3 not a wav file'))).toThrow(WavFormatError);
    const float = encodeWav({ sampleRate: 8000, channels: 1, samples: new Int16Array(4) });
    float.writeUInt16LE(3, 20);
    expect(() => parseWav(float)).toThrow(/Only 16-bit PCM/);
    // Valid files with random bytes overwritten and random truncation: a clean result or a WavFormatError.
    const valid = encodeWav({
      sampleRate: 16000,
      channels: 1,
      samples: Int16Array.from({ length: 64 }, (_, i) => i),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.nat(valid.length),
        (edits, length) => {
          const bytes = Buffer.from(valid.subarray(0, length));
          for (const [at, value] of edits) if (at < bytes.length) bytes[at] = value;
          try {
            const audio = parseWav(bytes);
            expect(audio.samples.length).toBeLessThanOrEqual(64);
          } catch (error) {
            expect(error).toBeInstanceOf(WavFormatError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
