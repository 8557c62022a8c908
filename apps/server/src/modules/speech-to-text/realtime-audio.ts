import { ulawToPcm } from '@parla/audio';

/*
 * Realtime transcription's audio in (issue 20 item 4): base64 PCM or μ-law chunks at the session's rate,
 * checked, decoded and resampled to the recogniser's 16 kHz in plain JavaScript as they arrive (a few
 * hundred microseconds a chunk; no process per chunk; the resampler is @parla/audio's).
 */

/** Base64 as the protocol sends it (standard alphabet, padded). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Why a chunk's audio was refused (the protocol's `input_error`). */
export class AudioChunkError extends Error {
  override name = 'AudioChunkError';
}

/**
 * A chunk's `audio_base_64` as 16-bit samples at its own rate: base64 that decodes to whole samples
 * (an even byte count for PCM), or throws AudioChunkError.
 */
export function decodeAudioChunk(base64: string, format: 'pcm' | 'ulaw'): Int16Array {
  if (base64.length % 4 !== 0 || !BASE64.test(base64))
    throw new AudioChunkError('audio_base_64 is not base64.');
  const bytes = Buffer.from(base64, 'base64');
  if (format === 'ulaw') return ulawToPcm(bytes);
  if (bytes.length % 2 !== 0)
    throw new AudioChunkError(
      `audio_base_64 holds ${bytes.length} bytes: 16-bit PCM needs an even number of bytes.`,
    );
  const samples = new Int16Array(bytes.length / 2);
  for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}
