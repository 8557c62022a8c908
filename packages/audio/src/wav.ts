/** 16-bit PCM WAV: what the engines produce and what ffmpeg reads. */
export interface PcmAudio {
  sampleRate: number;
  channels: number;
  /** Interleaved signed 16-bit samples. */
  samples: Int16Array;
}

/** Wraps 16-bit PCM in a canonical 44-byte RIFF/WAVE header. */
export function encodeWav({ sampleRate, channels, samples }: PcmAudio): Buffer {
  const dataBytes = samples.length * 2;
  const out = Buffer.alloc(44 + dataBytes);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * channels * 2, 28);
  out.writeUInt16LE(channels * 2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  Buffer.from(samples.buffer, samples.byteOffset, dataBytes).copy(out, 44);
  return out;
}

/** Thrown for bytes that are not a 16-bit PCM WAV file. */
export class WavFormatError extends Error {
  override name = 'WavFormatError';
}

/**
 * Reads a 16-bit PCM WAV, walking its chunks (so LIST/fact chunks and odd padding are fine). A data
 * size of 0 or past the end (streamed WAVs from some tools) means "to the end of the file".
 */
export function parseWav(bytes: Uint8Array): PcmAudio {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new WavFormatError('Not a RIFF/WAVE file.');
  }
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; tag: number } | undefined;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > buf.length) throw new WavFormatError('Truncated fmt chunk.');
      format = {
        tag: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) throw new WavFormatError('The data chunk comes before the fmt chunk.');
      // 1 = PCM, 0xFFFE = WAVE_FORMAT_EXTENSIBLE (its sub-format is PCM for 16-bit engine output).
      if ((format.tag !== 1 && format.tag !== 0xfffe) || format.bits !== 16) {
        throw new WavFormatError(`Only 16-bit PCM is supported (format ${format.tag}, ${format.bits} bits).`);
      }
      if (format.channels < 1 || format.sampleRate < 1)
        throw new WavFormatError('Invalid channel count or rate.');
      const end = size === 0 || body + size > buf.length ? buf.length : body + size;
      const usable = (end - body) & ~1;
      const samples = new Int16Array(usable / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = buf.readInt16LE(body + i * 2);
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new WavFormatError('No data chunk.');
}

/** Duration in seconds. */
export function durationSeconds(audio: PcmAudio): number {
  return audio.samples.length / audio.channels / audio.sampleRate;
}
