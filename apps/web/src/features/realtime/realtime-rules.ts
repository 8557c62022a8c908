/*
 * Pure helpers of the realtime sockets (issue 20 item 6): socket addresses, base64 without string
 * building per byte, 16-bit PCM in and out, downmixing and resampling the microphone's audio.
 */

/** The `ws:`/`wss:` address of a socket path on the page's own origin, with its query. */
export function socketUrl(
  origin: string,
  path: string,
  query: Record<string, string | number | boolean | undefined>,
): string {
  const url = new URL(path, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/** Bytes as base64 (in slices, so a long chunk never builds a huge argument list). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const slice = 0x8000;
  for (let at = 0; at < bytes.length; at += slice) {
    binary += String.fromCharCode(...bytes.subarray(at, at + slice));
  }
  return btoa(binary);
}

/** base64 back to bytes; throws on text that is not base64. */
export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Samples in −1…1 as 16-bit signed little-endian PCM (clipped, rounded to the nearest step). */
export function floatToPcm16(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) {
    const sample = Math.max(-1, Math.min(1, samples[i] ?? 0));
    view.setInt16(i * 2, Math.round(sample < 0 ? sample * 0x8000 : sample * 0x7fff), true);
  }
  return bytes;
}

/** 16-bit signed little-endian PCM as samples in −1…1 (an odd last byte is ignored). */
export function pcm16ToFloat(bytes: Uint8Array): Float32Array<ArrayBuffer> {
  const count = Math.floor(bytes.length / 2);
  const samples = new Float32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true) / 0x8000;
  return samples;
}

/** The channels of one block averaged into one (mono stays as it is). */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0];
  if (!first) return new Float32Array(0);
  if (channels.length === 1) return first;
  const mono = new Float32Array(first.length);
  for (const channel of channels) {
    for (let i = 0; i < mono.length; i++) mono[i] = (mono[i] ?? 0) + (channel[i] ?? 0) / channels.length;
  }
  return mono;
}

/** The loudness of a block (RMS) scaled so a normal voice fills most of a meter, 0–1. */
export function meterLevel(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.min(1, Math.sqrt(sum / samples.length) * 4);
}

/**
 * Converts a stream of blocks from one sample rate to another, block after block, with no seam between
 * blocks. Downsampling averages the input samples each output sample covers (a box filter, which keeps
 * most of the aliasing of 48 → 16 kHz out of the speech band); upsampling interpolates linearly.
 */
export class StreamResampler {
  /** Where the next output sample falls, in input samples from the start of the next block (or carry). */
  private position = 0;
  /** Downsampling: the input samples the next output sample still needs. */
  private carry = new Float32Array(0);
  /** The last input sample of the previous block, for interpolating across the seam. */
  private previous = 0;
  private readonly step: number;

  constructor(
    readonly inputRate: number,
    readonly outputRate: number,
  ) {
    if (!(inputRate > 0 && outputRate > 0)) throw new RangeError('Sample rates must be positive');
    this.step = inputRate / outputRate;
  }

  /** The output samples for one more block of input. */
  push(input: Float32Array): Float32Array {
    if (this.inputRate === this.outputRate) return input.slice();
    return this.step > 1 ? this.downsample(input) : this.upsample(input);
  }

  /** Each output sample averages the input between its position and the next one's. */
  private downsample(input: Float32Array): Float32Array {
    // The samples a box of the last block could not finish come first, so a box never loses its start.
    const data = new Float32Array(this.carry.length + input.length);
    data.set(this.carry);
    data.set(input, this.carry.length);
    const out: number[] = [];
    while (this.position + this.step <= data.length) {
      const from = Math.floor(this.position);
      const to = Math.floor(this.position + this.step);
      let sum = 0;
      for (let i = from; i < to; i++) sum += data[i] ?? 0;
      out.push(sum / (to - from));
      this.position += this.step;
    }
    const kept = Math.floor(this.position);
    this.carry = data.slice(kept);
    this.position -= kept;
    return Float32Array.from(out);
  }

  /** Linear interpolation; the last sample of the previous block bridges the seam. */
  private upsample(input: Float32Array): Float32Array {
    const out: number[] = [];
    while (this.position < input.length) {
      const index = Math.floor(this.position);
      const fraction = this.position - index;
      const before = index < 0 ? this.previous : (input[index] ?? 0);
      const after = index + 1 < input.length ? (input[index + 1] ?? 0) : null;
      if (after === null && fraction > 0) break;
      out.push(after === null ? before : before + (after - before) * fraction);
      this.position += this.step;
    }
    this.position -= input.length;
    if (input.length > 0) this.previous = input[input.length - 1] ?? 0;
    return Float32Array.from(out);
  }
}
