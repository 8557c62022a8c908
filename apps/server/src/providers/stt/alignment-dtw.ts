/*
 * The signal side of word alignment (word-alignment.ts, forced-alignment.ts): frame features of speech
 * and a banded dynamic time warping between two such feature sequences. Pure and synchronous.
 *
 * Features are MFCCs on a 10 ms hop (25 ms Hann frames, 26 mel bands over 100–7,600 Hz, cepstra 1–12:
 * c0, the absolute level, is left out, so a loud and a quiet reading compare alike), mean- and
 * variance-normalised per sequence (a reading by another voice, through another microphone, shifts and
 * scales each cepstrum), and the level relative to the sequence's peak.
 * Any input rate from 16 kHz up gives the same bands, so eSpeak's 22,050 Hz reading and a 16 kHz
 * recording compare without resampling.
 */
import { fft } from '@parla/audio';

/** Seconds between frames. */
export const HOP_SECONDS = 0.01;
const FRAME_SECONDS = 0.025;
const MEL_BANDS = 26;
const LOW_HZ = 100;
const HIGH_HZ = 7600;
/** Cepstra c1…c12, then the level (see LEVEL_*). */
const CEPSTRA = 12;
export const FEATURE_DIMS = CEPSTRA + 1;
/**
 * The last feature is the frame's level under the sequence's loudest frame, in units of 10 dB, floored
 * at −5 (50 dB under): silence in both sequences then matches silence whatever its noise, and a pause is
 * not spread over the words around it. Cepstra are normalised over the frames of sound only, so the share
 * of silence in a sequence does not move them.
 */
const LEVEL_UNIT_DB = 10;
const LEVEL_FLOOR = -5;

/** A sequence of frames: `features` holds `count` rows of FEATURE_DIMS values; `levelDb` one per frame. */
export interface FeatureFrames {
  count: number;
  features: Float32Array;
  /** Each frame's RMS level in dBFS (floored at −100). */
  levelDb: Float32Array;
}

const melOf = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzOf = (mel: number) => 700 * (10 ** (mel / 2595) - 1);

interface Analysis {
  window: Float64Array;
  size: number;
  /** Triangular mel filters: for each band, its first bin and weights. */
  filters: { first: number; weights: Float64Array }[];
  /** DCT-II rows for c1…c12. */
  dct: Float64Array;
}

const analyses = new Map<number, Analysis>();

function analysisFor(sampleRate: number): Analysis {
  const cached = analyses.get(sampleRate);
  if (cached) return cached;
  const length = Math.round(FRAME_SECONDS * sampleRate);
  const size = 2 ** Math.ceil(Math.log2(length));
  const window = new Float64Array(length);
  for (let i = 0; i < length; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (length - 1));
  const high = Math.min(HIGH_HZ, sampleRate / 2);
  const edges: number[] = [];
  for (let b = 0; b < MEL_BANDS + 2; b++)
    edges.push(hzOf(melOf(LOW_HZ) + ((melOf(high) - melOf(LOW_HZ)) * b) / (MEL_BANDS + 1)));
  const binHz = sampleRate / size;
  const filters = [];
  for (let b = 0; b < MEL_BANDS; b++) {
    const [lo, mid, hi] = [edges[b] as number, edges[b + 1] as number, edges[b + 2] as number];
    const first = Math.ceil(lo / binHz);
    const last = Math.floor(hi / binHz);
    const weights = new Float64Array(Math.max(0, last - first + 1));
    for (let k = first; k <= last; k++) {
      const hz = k * binHz;
      weights[k - first] = hz <= mid ? (hz - lo) / (mid - lo) : (hi - hz) / (hi - mid);
    }
    filters.push({ first, weights });
  }
  const dct = new Float64Array(CEPSTRA * MEL_BANDS);
  for (let c = 0; c < CEPSTRA; c++)
    for (let b = 0; b < MEL_BANDS; b++)
      dct[c * MEL_BANDS + b] = Math.cos((Math.PI * (c + 1) * (b + 0.5)) / MEL_BANDS);
  const analysis = { window, size, filters, dct };
  analyses.set(sampleRate, analysis);
  return analysis;
}

/**
 * MFCC frames of mono audio (floats in −1…1 or 16-bit samples), normalised per sequence (see above) unless
 * `normalized` is false (pieces to be joined first: joinFrames).
 */
export function featureFrames(
  samples: Float32Array | Int16Array,
  sampleRate: number,
  normalized = true,
): FeatureFrames {
  const { window, size, filters, dct } = analysisFor(sampleRate);
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  const hop = HOP_SECONDS * sampleRate;
  const count = Math.max(0, Math.floor((samples.length - window.length) / hop) + 1);
  const features = new Float32Array(count * FEATURE_DIMS);
  const levelDb = new Float32Array(count);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const bands = new Float64Array(MEL_BANDS);
  for (let f = 0; f < count; f++) {
    const at = Math.round(f * hop);
    re.fill(0);
    im.fill(0);
    let power = 0;
    for (let i = 0; i < window.length; i++) {
      const v = (samples[at + i] ?? 0) * scale;
      power += v * v;
      re[i] = v * (window[i] as number);
    }
    levelDb[f] = Math.max(-100, 10 * Math.log10(power / window.length + 1e-12));
    fft(re, im);
    for (let b = 0; b < MEL_BANDS; b++) {
      const { first, weights } = filters[b] as Analysis['filters'][0];
      let sum = 0;
      for (let k = 0; k < weights.length; k++) {
        const r = re[first + k] as number;
        const m = im[first + k] as number;
        sum += (weights[k] as number) * (r * r + m * m);
      }
      // A floor far under speech, so digital silence does not give −∞ and dominate the cepstra.
      bands[b] = Math.log(sum + 1e-8);
    }
    for (let c = 0; c < CEPSTRA; c++) {
      let sum = 0;
      for (let b = 0; b < MEL_BANDS; b++) sum += (dct[c * MEL_BANDS + b] as number) * (bands[b] as number);
      features[f * FEATURE_DIMS + c] = sum;
    }
  }
  if (normalized) normalize(features, levelDb, count);
  return { count, features, levelDb };
}

/** Pieces' frames (unnormalised) joined into one sequence, normalised as a whole. */
export function joinFrames(pieces: readonly FeatureFrames[]): FeatureFrames {
  const count = pieces.reduce((sum, p) => sum + p.count, 0);
  const features = new Float32Array(count * FEATURE_DIMS);
  const levelDb = new Float32Array(count);
  let at = 0;
  for (const piece of pieces) {
    features.set(piece.features.subarray(0, piece.count * FEATURE_DIMS), at * FEATURE_DIMS);
    levelDb.set(piece.levelDb.subarray(0, piece.count), at);
    at += piece.count;
  }
  normalize(features, levelDb, count);
  return { count, features, levelDb };
}

/** Frames averaged `factor` at a time (levels: their loudest): a coarser grid for a first, long warp. */
export function poolFrames(frames: FeatureFrames, factor: number): FeatureFrames {
  const count = Math.ceil(frames.count / factor);
  const features = new Float32Array(count * FEATURE_DIMS);
  const levelDb = new Float32Array(count).fill(-100);
  for (let f = 0; f < frames.count; f++) {
    const g = Math.floor(f / factor);
    const n = Math.min(factor, frames.count - g * factor);
    for (let c = 0; c < FEATURE_DIMS; c++)
      features[g * FEATURE_DIMS + c] =
        (features[g * FEATURE_DIMS + c] as number) + (frames.features[f * FEATURE_DIMS + c] as number) / n;
    levelDb[g] = Math.max(levelDb[g] as number, frames.levelDb[f] as number);
  }
  return { count, features, levelDb };
}

/** Each cepstrum to mean 0 and variance 1 over the frames of sound; the level feature set (see above). */
function normalize(features: Float32Array, levelDb: Float32Array, count: number): void {
  if (count === 0) return;
  let peak = -100;
  for (let f = 0; f < count; f++) peak = Math.max(peak, levelDb[f] as number);
  const gate = peak + LEVEL_UNIT_DB * LEVEL_FLOOR;
  let sound = 0;
  for (let f = 0; f < count; f++) if ((levelDb[f] as number) >= gate) sound += 1;
  const counted = (f: number) => sound === 0 || (levelDb[f] as number) >= gate;
  for (let c = 0; c < CEPSTRA; c++) {
    let mean = 0;
    for (let f = 0; f < count; f++) if (counted(f)) mean += features[f * FEATURE_DIMS + c] as number;
    mean /= sound || count;
    let variance = 0;
    for (let f = 0; f < count; f++)
      if (counted(f)) variance += ((features[f * FEATURE_DIMS + c] as number) - mean) ** 2;
    const sd = Math.sqrt(variance / (sound || count)) || 1;
    for (let f = 0; f < count; f++)
      features[f * FEATURE_DIMS + c] = ((features[f * FEATURE_DIMS + c] as number) - mean) / sd;
  }
  for (let f = 0; f < count; f++)
    features[f * FEATURE_DIMS + CEPSTRA] = Math.max(
      LEVEL_FLOOR,
      ((levelDb[f] as number) - peak) / LEVEL_UNIT_DB,
    );
}

/** The warp between two sequences: for each frame of `b`, the first and last frame of `a` matched to it. */
export interface WarpPath {
  firstA: Int32Array;
  lastA: Int32Array;
  /** The local cost (feature distance) of each cell of the path, by frame of `a`: their mean. */
  costByA: Float32Array;
  /** Each frame of `a`'s mean distance to the frames of `b` in its band: what a chance match costs. */
  chanceByA: Float32Array;
}

/**
 * Dynamic time warping of `a` against `b` (steps right, up and diagonal, each adding the Euclidean
 * distance of the cell), within a Sakoe–Chiba band of `band` frames either side of the straight line from
 * the first pair of frames to the last. Memory is one byte per cell of the band plus two rows of costs:
 * bounded by a.count × (2·band + 1).
 */
export function warp(a: FeatureFrames, b: FeatureFrames, band: number): WarpPath {
  const n = a.count;
  const m = b.count;
  if (n === 0 || m === 0) throw new RangeError('Nothing to align: an empty sequence.');
  const width = 2 * band + 1;
  // Where row i's band starts in b (the band follows the diagonal of the n × m rectangle).
  const startOf = (i: number) => Math.round((n === 1 ? 0 : (i * (m - 1)) / (n - 1)) - band);
  const steps = new Uint8Array(n * width); // 0 none, 1 diagonal, 2 from i−1 (same j), 3 from j−1
  let previous = new Float64Array(width).fill(Number.POSITIVE_INFINITY);
  let current = new Float64Array(width);
  const fa = a.features;
  const fb = b.features;
  const D = FEATURE_DIMS;
  const chanceByA = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const s = startOf(i);
    let rowSum = 0;
    let rowCount = 0;
    const sPrev = i > 0 ? startOf(i - 1) : s;
    current.fill(Number.POSITIVE_INFINITY);
    for (let k = 0; k < width; k++) {
      const j = s + k;
      if (j < 0 || j >= m) continue;
      let d = 0;
      for (let c = 0; c < D; c++) {
        const x = (fa[i * D + c] as number) - (fb[j * D + c] as number);
        d += x * x;
      }
      d = Math.sqrt(d);
      rowSum += d;
      rowCount += 1;
      if (i === 0 && j === 0) {
        current[k] = d;
        continue;
      }
      let best = Number.POSITIVE_INFINITY;
      let step = 0;
      if (i > 0) {
        const kd = j - 1 - sPrev;
        if (kd >= 0 && kd < width && (previous[kd] as number) < best) {
          best = previous[kd] as number;
          step = 1;
        }
        const ku = j - sPrev;
        if (ku >= 0 && ku < width && (previous[ku] as number) < best) {
          best = previous[ku] as number;
          step = 2;
        }
      }
      if (k > 0 && (current[k - 1] as number) < best) {
        best = current[k - 1] as number;
        step = 3;
      }
      if (step === 0) continue;
      current[k] = best + d;
      steps[i * width + k] = step;
    }
    chanceByA[i] = rowSum / Math.max(1, rowCount);
    [previous, current] = [current, previous];
  }
  const firstA = new Int32Array(m).fill(-1);
  const lastA = new Int32Array(m).fill(-1);
  const costSum = new Float64Array(n);
  const costCount = new Uint32Array(n);
  let i = n - 1;
  let j = m - 1;
  if (j - startOf(i) < 0 || j - startOf(i) >= width) throw new RangeError('The band misses the last cell.');
  for (;;) {
    let d = 0;
    for (let c = 0; c < D; c++) d += ((fa[i * D + c] as number) - (fb[j * D + c] as number)) ** 2;
    costSum[i] = (costSum[i] as number) + Math.sqrt(d);
    costCount[i] = (costCount[i] as number) + 1;
    firstA[j] = i;
    if (lastA[j] === -1) lastA[j] = i;
    if (i === 0 && j === 0) break;
    const step = steps[i * width + (j - startOf(i))];
    if (step === 1) {
      i -= 1;
      j -= 1;
    } else if (step === 2) i -= 1;
    else if (step === 3) j -= 1;
    else throw new RangeError('The warp path is broken.');
  }
  const costByA = new Float32Array(n);
  for (let k = 0; k < n; k++) costByA[k] = (costSum[k] as number) / Math.max(1, costCount[k] as number);
  return { firstA, lastA, costByA, chanceByA };
}
