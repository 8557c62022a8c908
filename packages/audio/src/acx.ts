/*
 * Audiobook audio to ACX's submission rules (issue 30 item 2; docs/decisions/0025-studio.md, "Audiobook
 * audio: ACX, normalisation and exports"): measuring a chapter (RMS, peak, noise floor), bringing it into
 * the window (gain, then a look-ahead peak limiter), and the room tone that replaces digital silence.
 * Mono signed 16-bit PCM, streamed in chunks of any size: a chapter is never held whole.
 */
import { seededRandom } from './seeded-random';

/**
 * ACX's audio requirements (ACX "Audio Submission Requirements"): each file's RMS between −23 and −18 dB,
 * peaks at or under −3 dB, and a noise floor (the RMS of its room tone) at or under −60 dB.
 */
export const ACX_LIMITS = { rmsMinDb: -23, rmsMaxDb: -18, peakMaxDb: -3, noiseFloorMaxDb: -60 } as const;

/** The length of a noise-floor window: the quietest half second of a file is its room tone. */
export const NOISE_WINDOW_SEC = 0.5;

/**
 * The lowest level reported, for digital silence (a log of zero). Below a 16-bit sample's smallest step
 * (−90.3 dBFS), so no real signal is reported at it; finite, so a report is valid JSON.
 */
export const SILENCE_DB = -120;

/** A file's levels in dBFS (0 dB = a full-scale square wave's RMS / a full-scale sample). */
export interface AcxMeasurement {
  rms_db: number;
  peak_db: number;
  /** The RMS of the quietest whole 0.5 s window (aligned at the file's start, as ffmpeg's astats reset=22050 does at 44.1 kHz). */
  noise_floor_db: number;
}

/** A measurement with ACX's verdict on each rule and on the whole. */
export interface AcxReport extends AcxMeasurement {
  passes: { rms: boolean; peak: boolean; noise_floor: boolean };
  pass: boolean;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const powerDb = (meanSquare: number) => Math.max(SILENCE_DB, 10 * Math.log10(meanSquare));
const amplitudeDb = (amplitude: number) => Math.max(SILENCE_DB, 20 * Math.log10(amplitude));

/**
 * Measures ACX's three figures in one pass over a chapter's samples, pushed in chunks. The same
 * statistics as ffmpeg's `astats` Overall RMS_level and Peak_level (checked in acx.int.test.ts); the noise
 * floor is the quietest whole 0.5 s window's RMS (astats's own "Noise floor" is a different statistic, the
 * minimum of a running peak, and is not ACX's). A file shorter than one window uses what it has.
 */
export class AcxMeter {
  private readonly window: number;
  private sumSquares = 0;
  private count = 0;
  private peak = 0;
  private windowSum = 0;
  private windowCount = 0;
  private quietest = Number.POSITIVE_INFINITY;

  constructor(readonly sampleRate: number) {
    if (!(sampleRate > 0)) throw new RangeError(`A sample rate of ${sampleRate} Hz measures nothing.`);
    this.window = Math.max(1, Math.round(sampleRate * NOISE_WINDOW_SEC));
  }

  push(samples: Int16Array): void {
    for (let i = 0; i < samples.length; i += 1) {
      const x = (samples[i] as number) / 32768;
      const x2 = x * x;
      this.sumSquares += x2;
      this.windowSum += x2;
      this.windowCount += 1;
      const a = x < 0 ? -x : x;
      if (a > this.peak) this.peak = a;
      if (this.windowCount === this.window) {
        if (this.windowSum < this.quietest) this.quietest = this.windowSum;
        this.windowSum = 0;
        this.windowCount = 0;
      }
    }
    this.count += samples.length;
  }

  /** How many samples were measured. */
  get samples(): number {
    return this.count;
  }

  result(): AcxMeasurement {
    if (this.count === 0) return { rms_db: SILENCE_DB, peak_db: SILENCE_DB, noise_floor_db: SILENCE_DB };
    const floor =
      this.quietest === Number.POSITIVE_INFINITY
        ? this.windowSum / Math.max(1, this.windowCount)
        : this.quietest / this.window;
    return {
      rms_db: round2(powerDb(this.sumSquares / this.count)),
      peak_db: round2(amplitudeDb(this.peak)),
      noise_floor_db: round2(powerDb(floor)),
    };
  }
}

/** ACX's verdict on a measurement. */
export function acxReport(m: AcxMeasurement): AcxReport {
  const passes = {
    rms: m.rms_db >= ACX_LIMITS.rmsMinDb && m.rms_db <= ACX_LIMITS.rmsMaxDb,
    peak: m.peak_db <= ACX_LIMITS.peakMaxDb,
    noise_floor: m.noise_floor_db <= ACX_LIMITS.noiseFloorMaxDb,
  };
  return { ...m, passes, pass: passes.rms && passes.peak && passes.noise_floor };
}

/** ACX's report on samples held whole (tests, short audio). */
export function measureAcx(samples: Int16Array, sampleRate: number): AcxReport {
  const meter = new AcxMeter(sampleRate);
  meter.push(samples);
  return acxReport(meter.result());
}

/**
 * Where normalisation aims: −20 dB RMS is the middle of ACX's −23…−18 window, leaving room both for the
 * limiter's small loss and for a chapter that measures a little differently. The ceiling is 0.5 dB under
 * ACX's −3 dB peak rule, so the limiter's output (and a decoder's overshoot of an mp3) stays under it.
 */
export const NORMALIZE_TARGET_RMS_DB = -20;
export const LIMITER_CEILING_DB = -3.5;
/** The limiter's gain falls over 5 ms before a peak (look-ahead) and recovers with a 50 ms time constant. */
export const LIMITER_ATTACK_SEC = 0.005;
export const LIMITER_RELEASE_SEC = 0.05;
/**
 * The most gain normalisation adds: past +30 dB a "chapter" is near silence, and lifting it would lift
 * its noise with it (a −75 dB room tone would become −45 dB, failing ACX's floor) for no speech gained.
 */
export const NORMALIZE_MAX_GAIN_DB = 30;

export interface NormalizeOptions {
  targetRmsDb?: number;
  ceilingDb?: number;
}

/**
 * The gain (dB) that brings a measured chapter to the target RMS, bounded to [−40, +30] dB; 0 for
 * digital silence (nothing to bring up).
 */
export function normalizationGainDb(measured: AcxMeasurement, targetRmsDb = NORMALIZE_TARGET_RMS_DB): number {
  if (measured.rms_db <= SILENCE_DB) return 0;
  return Math.min(NORMALIZE_MAX_GAIN_DB, Math.max(-40, targetRmsDb - measured.rms_db));
}

/**
 * A look-ahead peak limiter with a gain stage in front, streaming: `push` returns the output so far
 * (delayed by the look-ahead inside the limiter; the total is as long as the input once `flush`ed).
 *
 * Each sample needs a gain of at most ceiling/|x|. The gain applied is the moving average, over the
 * look-ahead (the attack), of the smallest required gain over the look-ahead window, smoothed upwards
 * only by the release. Every term of the average that lands on a sample comes from a window holding that
 * sample, so no output sample passes the ceiling (no clipping, no overshoot), and the gain ramps down
 * over the attack instead of jumping: not a hard clip, which squares off the waveform and is heard as
 * distortion. The release lets the gain back up smoothly, so the quiet sound after a peak does not pump.
 */
export class PeakLimiter {
  private readonly gain: number;
  private readonly ceiling: number;
  private readonly lookahead: number;
  private readonly releaseCoeff: number;
  /** The delayed input (ring of `lookahead` samples). */
  private readonly delay: Float64Array;
  /** The required gains of the last `lookahead` inputs, with a monotonic queue of their minima. */
  private readonly required: Float64Array;
  private readonly minQueue: Int32Array;
  private minHead = 0;
  private minTail = 0;
  /** The last `lookahead` held gains, and their sum (the moving average's). */
  private readonly held: Float64Array;
  private heldSum: number;
  private released = 1;
  private n = 0;
  private readonly maxReduction = { db: 0 };

  constructor(
    readonly sampleRate: number,
    options: { gainDb?: number; ceilingDb?: number; attackSec?: number; releaseSec?: number } = {},
  ) {
    if (!(sampleRate > 0)) throw new RangeError(`A sample rate of ${sampleRate} Hz limits nothing.`);
    this.gain = 10 ** ((options.gainDb ?? 0) / 20);
    const ceilingDb = options.ceilingDb ?? LIMITER_CEILING_DB;
    if (!(ceilingDb < 0 && ceilingDb > -60))
      throw new RangeError(`A ceiling of ${ceilingDb} dBFS is out of range.`);
    this.ceiling = 10 ** (ceilingDb / 20);
    this.lookahead = Math.max(1, Math.round(sampleRate * (options.attackSec ?? LIMITER_ATTACK_SEC)));
    this.releaseCoeff = 1 - Math.exp(-1 / (sampleRate * (options.releaseSec ?? LIMITER_RELEASE_SEC)));
    this.delay = new Float64Array(this.lookahead);
    this.required = new Float64Array(this.lookahead);
    this.minQueue = new Int32Array(this.lookahead + 1);
    this.held = new Float64Array(this.lookahead).fill(1);
    this.heldSum = this.lookahead;
  }

  /** The deepest gain reduction the limiter applied so far (dB, ≤ 0). */
  get maxGainReductionDb(): number {
    return this.maxReduction.db;
  }

  private step(x: number): number {
    const L = this.lookahead;
    const slot = this.n % L;
    const a = Math.abs(x);
    const need = a > this.ceiling ? this.ceiling / a : 1;
    // Sliding minimum of the last L required gains (indices n−L+1…n), a monotonic queue of indices.
    const q = this.minQueue;
    const size = q.length;
    while (this.minTail !== this.minHead) {
      const last = q[(this.minTail - 1 + size) % size] as number;
      if ((this.required[last % L] as number) > need) this.minTail = (this.minTail - 1 + size) % size;
      else break;
    }
    this.required[slot] = need;
    q[this.minTail] = this.n;
    this.minTail = (this.minTail + 1) % size;
    while ((q[this.minHead] as number) <= this.n - L) this.minHead = (this.minHead + 1) % size;
    const windowMin = this.required[(q[this.minHead] as number) % L] as number;
    // Down at once (the average below makes it a ramp), up with the release.
    this.released =
      windowMin < this.released ? windowMin : this.released + (windowMin - this.released) * this.releaseCoeff;
    this.heldSum += this.released - (this.held[slot] as number);
    this.held[slot] = this.released;
    const g = Math.min(1, this.heldSum / L);
    // The sample that entered L−1 steps ago (this one when L is 1): each held gain averaged covers it.
    this.delay[slot] = x;
    const out = (this.delay[(this.n + 1) % L] as number) * g;
    this.n += 1;
    if (g < 1) {
      const db = 20 * Math.log10(g);
      if (db < this.maxReduction.db) this.maxReduction.db = db;
    }
    return out;
  }

  /** Limits a chunk; returns the output samples ready so far (fewer than pushed at the very start). */
  push(samples: Int16Array): Int16Array {
    const out = new Int16Array(samples.length);
    let written = 0;
    for (let i = 0; i < samples.length; i += 1) {
      const primed = this.n >= this.lookahead - 1;
      const y = this.step(((samples[i] as number) / 32768) * this.gain);
      if (primed) out[written++] = toInt16(y);
    }
    return written === out.length ? out : out.subarray(0, written);
  }

  /** The last samples still in the look-ahead; then the limiter is spent. */
  flush(): Int16Array {
    const total = this.n;
    const out = new Int16Array(Math.min(total, this.lookahead - 1));
    let written = 0;
    for (let i = 0; i < this.lookahead - 1; i += 1) {
      // The sample this step puts out: index n − L + 1, real only from 0 to the last one pushed.
      const index = this.n - this.lookahead + 1;
      const y = this.step(0);
      if (index >= 0 && index < total) out[written++] = toInt16(y);
    }
    return out;
  }
}

function toInt16(y: number): number {
  const v = Math.round(y * 32768);
  return Math.min(32767, Math.max(-32768, v));
}

/**
 * ACX normalisation of samples held whole (tests, short audio): measure, gain to the target RMS, limit at
 * the ceiling, measure again. Chapters on disk go through the same classes chunk by chunk
 * (normalizeWavFile in the server's platform/media).
 */
export function normalizeForAcx(
  samples: Int16Array,
  sampleRate: number,
  options: NormalizeOptions = {},
): { samples: Int16Array; before: AcxReport; after: AcxReport; gainDb: number } {
  const before = measureAcx(samples, sampleRate);
  const gainDb = normalizationGainDb(before, options.targetRmsDb);
  const limiter = new PeakLimiter(sampleRate, { gainDb, ceilingDb: options.ceilingDb });
  const head = limiter.push(samples);
  const tail = limiter.flush();
  const out = new Int16Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return { samples: out, before, after: measureAcx(out, sampleRate), gainDb: round2(gainDb) };
}

/** Room tone's level: 15 dB under ACX's noise-floor limit, so normalisation's gain rarely lifts it past. */
export const ROOM_TONE_DB = -75;

/**
 * Room tone for pauses and a chapter's head and tail: ACX rejects files with stretches of digital silence
 * (they sound like a dropout between breaths), so the silence a chapter is padded with, and a pause
 * inserted between its paragraphs, is a quiet noise bed instead. Gently low-passed white noise (a
 * one-pole filter: a room's hum is dark, not hiss) at `levelDb` RMS, seeded so a reconversion gives the
 * same bytes. Stateful: consecutive calls continue the same noise without a seam.
 */
export class RoomTone {
  private readonly random: () => number;
  private readonly scale: number;
  private state = 0;

  constructor(seed: number, levelDb = ROOM_TONE_DB) {
    if (!(levelDb <= -40 && levelDb >= -100))
      throw new RangeError(`Room tone at ${levelDb} dB is out of range.`);
    this.random = seededRandom(seed);
    // The filter y += 0.5·(x − y) passes a third of white noise's power (variance a/(2−a), a = 0.5); a
    // sum of four uniforms has variance 4/12. So the output's RMS is scaled back to `levelDb` exactly.
    const filtered = Math.sqrt((4 / 12) * (0.5 / 1.5));
    this.scale = (10 ** (levelDb / 20) * 32768) / filtered;
  }

  /** The next `count` samples of room tone. */
  samples(count: number): Int16Array {
    const out = new Int16Array(Math.max(0, Math.floor(count)));
    for (let i = 0; i < out.length; i += 1) {
      const white = this.random() + this.random() + this.random() + this.random() - 2;
      this.state += 0.5 * (white - this.state);
      out[i] = Math.round(this.state * this.scale);
    }
    return out;
  }
}

/** ACX: 0.5–1 s of room tone at the head of each chapter file, 1–5 s at its tail. */
export const CHAPTER_LEAD_SEC = { min: 0.5, max: 1, default: 0.75 } as const;
export const CHAPTER_TAIL_SEC = { min: 1, max: 5, default: 2 } as const;

/**
 * How much room tone goes at a chapter's head and tail, within ACX's ranges: a value outside them is a
 * RangeError (the caller's setting is wrong), none given takes the default.
 */
export function chapterPadding(leadSec?: number, tailSec?: number): { leadSec: number; tailSec: number } {
  const lead = leadSec ?? CHAPTER_LEAD_SEC.default;
  const tail = tailSec ?? CHAPTER_TAIL_SEC.default;
  if (!(lead >= CHAPTER_LEAD_SEC.min && lead <= CHAPTER_LEAD_SEC.max))
    throw new RangeError(
      `A chapter's head must be ${CHAPTER_LEAD_SEC.min}–${CHAPTER_LEAD_SEC.max} s of room tone, not ${lead} s.`,
    );
  if (!(tail >= CHAPTER_TAIL_SEC.min && tail <= CHAPTER_TAIL_SEC.max))
    throw new RangeError(
      `A chapter's tail must be ${CHAPTER_TAIL_SEC.min}–${CHAPTER_TAIL_SEC.max} s of room tone, not ${tail} s.`,
    );
  return { leadSec: lead, tailSec: tail };
}

/**
 * Replaces runs of digital silence (exact zeros, at least `minRunSec` long: the pauses engines and pause
 * marks insert, a chapter's padding) with room tone, streaming. A run of zeros at the end of a chunk is
 * held back until the next chunk (or `flush`) shows where it ends, so a pause cut by a chunk boundary is
 * judged and filled whole; `push` may therefore return fewer samples than it was given, and `flush` the
 * rest. Single zero crossings inside speech are left alone.
 */
export class DigitalSilenceFiller {
  private readonly minRun: number;
  private pendingZeros = 0;
  /** Samples filled with room tone so far. */
  filled = 0;

  constructor(
    sampleRate: number,
    private readonly tone: RoomTone,
    minRunSec = 0.02,
  ) {
    this.minRun = Math.max(1, Math.round(sampleRate * minRunSec));
  }

  push(samples: Int16Array): Int16Array {
    let tail = samples.length;
    while (tail > 0 && samples[tail - 1] === 0) tail -= 1;
    if (tail === 0) {
      this.pendingZeros += samples.length;
      return new Int16Array(0);
    }
    const out = new Int16Array(this.pendingZeros + tail);
    out.set(samples.subarray(0, tail), this.pendingZeros);
    this.pendingZeros = samples.length - tail;
    this.fill(out);
    return out;
  }

  flush(): Int16Array {
    const out = new Int16Array(this.pendingZeros);
    this.pendingZeros = 0;
    this.fill(out);
    return out;
  }

  private fill(samples: Int16Array): void {
    let i = 0;
    while (i < samples.length) {
      if (samples[i] !== 0) {
        i += 1;
        continue;
      }
      let end = i;
      while (end < samples.length && samples[end] === 0) end += 1;
      if (end - i >= this.minRun) {
        samples.set(this.tone.samples(end - i), i);
        this.filled += end - i;
      }
      i = end;
    }
  }
}

/** Fills the digital silence of samples held whole (see DigitalSilenceFiller); returns how many it filled. */
export function fillDigitalSilence(
  samples: Int16Array,
  sampleRate: number,
  tone: RoomTone,
  minRunSec = 0.02,
): number {
  const filler = new DigitalSilenceFiller(sampleRate, tone, minRunSec);
  const head = filler.push(samples);
  const tail = filler.flush();
  samples.set(head);
  samples.set(tail, head.length);
  return filler.filled;
}
