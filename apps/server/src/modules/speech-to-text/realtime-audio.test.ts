import { describe, expect, it } from 'vitest';
import { AudioChunkError, decodeAudioChunk } from './realtime-audio';

describe('realtime audio in', () => {
  it('decodes base64 PCM, and refuses what is not base64 or not whole samples', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768]);
    const b64 = Buffer.from(samples.buffer).toString('base64');
    expect(Array.from(decodeAudioChunk(b64, 'pcm'))).toEqual(Array.from(samples));
    expect(decodeAudioChunk('', 'pcm')).toHaveLength(0);
    expect(() => decodeAudioChunk('not base64!', 'pcm')).toThrow(AudioChunkError);
    expect(() => decodeAudioChunk('AAA', 'pcm')).toThrow(/base64/);
    expect(() => decodeAudioChunk('AA==', 'pcm')).toThrow(/even/);
    // μ-law: one byte a sample, any count.
    expect(decodeAudioChunk('AA==', 'ulaw')).toHaveLength(1);
  });
});
