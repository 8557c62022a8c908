/*
 * G.711 μ-law and A-law (ITU-T G.711, as Sun's reference g711.c does it; ffmpeg's pcm_mulaw / pcm_alaw
 * round to the nearest level instead, so about 1.4% of inputs land one step apart): 16-bit linear samples
 * to and from one byte each. The telephone formats of the API (`ulaw_8000`,
 * `alaw_8000`) and of realtime transcription's input.
 */

const ULAW_BIAS = 0x84;
const ULAW_CLIP = 32_635;
/** The A-law segments' upper ends (13-bit magnitudes). */
const ALAW_SEGMENT_ENDS = [0x1f, 0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff];

const ULAW_TO_LINEAR = (() => {
  const table = new Int16Array(256);
  for (let i = 0; i < 256; i += 1) {
    const u = ~i & 0xff;
    const exponent = (u >> 4) & 0x07;
    const mantissa = u & 0x0f;
    const magnitude = (((mantissa << 3) + ULAW_BIAS) << exponent) - ULAW_BIAS;
    table[i] = u & 0x80 ? -magnitude : magnitude;
  }
  return table;
})();

const ALAW_TO_LINEAR = (() => {
  const table = new Int16Array(256);
  for (let i = 0; i < 256; i += 1) {
    const a = i ^ 0x55;
    const segment = (a & 0x70) >> 4;
    let magnitude = (a & 0x0f) << 4;
    if (segment === 0) magnitude += 8;
    else magnitude = (magnitude + 0x108) << Math.max(0, segment - 1);
    table[i] = a & 0x80 ? magnitude : -magnitude;
  }
  return table;
})();

/** One 16-bit sample as a μ-law byte. */
function linearToUlaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  const magnitude = Math.min(ULAW_CLIP, sign ? -sample : sample) + ULAW_BIAS;
  const exponent = 31 - Math.clz32(magnitude >> 7);
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** One 16-bit sample as an A-law byte. */
function linearToAlaw(sample: number): number {
  let pcm = sample >> 3;
  let mask = 0xd5;
  if (pcm < 0) {
    mask = 0x55;
    pcm = -pcm - 1;
  }
  let segment = 0;
  while (segment < 8 && pcm > (ALAW_SEGMENT_ENDS[segment] as number)) segment += 1;
  if (segment >= 8) return 0x7f ^ mask;
  const bits = segment < 2 ? (pcm >> 1) & 0x0f : (pcm >> segment) & 0x0f;
  return ((segment << 4) | bits) ^ mask;
}

/** G.711 μ-law bytes as 16-bit linear samples. */
export function ulawToPcm(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) out[i] = ULAW_TO_LINEAR[bytes[i] as number] as number;
  return out;
}

/** G.711 A-law bytes as 16-bit linear samples. */
export function alawToPcm(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) out[i] = ALAW_TO_LINEAR[bytes[i] as number] as number;
  return out;
}

/** 16-bit linear samples as G.711 μ-law bytes. */
export function pcmToUlaw(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) out[i] = linearToUlaw(samples[i] as number);
  return out;
}

/** 16-bit linear samples as G.711 A-law bytes. */
export function pcmToAlaw(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) out[i] = linearToAlaw(samples[i] as number);
  return out;
}
