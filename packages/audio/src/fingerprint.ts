import { Resampler } from './resampler';
import { fft, type VoiceAudio } from './voice-profile';

/*
 * Audio fingerprints (issue 26 item 7): what lets the installation recognise its own output in a
 * recording, after the recording was re-encoded (MP3, Opus), resampled (down to 8 kHz), made louder or
 * quieter, mixed with noise, or cut to a part of it. Landmarks after Wang (2003, "An industrial-strength
 * audio search algorithm", the Shazam paper): the peaks of the spectrogram, paired with peaks shortly
 * after them; each pair is a hash of its two frequencies and the time between them, stored with the time
 * of its first peak. Another copy of the same audio has many of the same pairs at one constant time
 * offset; other speech shares a few hashes by chance, at scattered offsets. Pure and synchronous.
 *
 * Everything runs on an 8 kHz copy (every accepted input rate, the telephone one included, has it),
 * between 200 Hz and 3.5 kHz, which MP3 and Opus at speech bit rates keep. A peak is the loudest point
 * of its neighbourhood (±80 ms, ±94 Hz) and no more than 30 dB under the recording's loud frames, so
 * 20 dB of noise in the pauses does not make peaks of its own.
 */

/** The rate the fingerprint is taken at: the telephone band every input has. */
const RATE = 8000;
/** 64 ms windows: bins of 15.6 Hz, fine enough to part the harmonics of a low voice (≥ 80 Hz). */
const FFT_SIZE = 512;
/** 16 ms between frames: the time resolution of the landmarks. */
const HOP = 128;
/** Seconds per frame: the unit of a landmark's time. */
export const FINGERPRINT_FRAME_SECONDS = HOP / RATE;
/** Lowest bin looked at (203 Hz): below it hum and rumble, and the fundamental that MP3 thins. */
const LOW_BIN = 13;
/** Highest bin looked at (3.5 kHz): an 8 kHz input's resampler keeps up to about 3.6 kHz. */
const HIGH_BIN = 224;
/** A peak is the loudest within this many frames (±80 ms) on each side… */
const PEAK_TIME_REACH = 5;
/** …and this many bins (±94 Hz) on each side: about 30 peaks a second of speech. */
const PEAK_BIN_REACH = 6;
/** A peak is at most this far (dB) under the loud frames' peaks (their 95th percentile). */
const PEAK_FLOOR_DB = 30;
/** Each peak is paired with the first this many peaks in its target zone. */
const FAN_OUT = 3;
/** The target zone: 1…40 frames (16–640 ms) after the anchor… */
const TARGET_MAX_FRAMES = 40;
/** …and within this many bins (±0.98 kHz) of it. */
const TARGET_MAX_BINS = 63;

/**
 * A recording's landmarks: `hashes[i]` was found at frame `frames[i]` (frames of
 * {@link FINGERPRINT_FRAME_SECONDS} from the start of the audio, plus the start given).
 */
export interface AudioFingerprint {
  hashes: Uint32Array;
  frames: Uint32Array;
  /** Length of the audio fingerprinted, in seconds. */
  durationSeconds: number;
}

/**
 * The landmarks of mono audio at any rate from 8 kHz, as kept for generated audio. `startSeconds` places
 * the audio in a longer whole (a sentence of a streamed generation): its frames count from there.
 */
export function fingerprintAudio(audio: VoiceAudio, startSeconds = 0): AudioFingerprint {
  const signal = toRate(audio);
  return {
    ...landmarks(signal, Math.round(startSeconds / FINGERPRINT_FRAME_SECONDS)),
    durationSeconds: audio.samples.length / audio.sampleRate,
  };
}

/** Long audio is fingerprinted in pieces of this many frames (5 s)… */
const PIECE_FRAMES = 312;
/**
 * …each looked at with some of the audio before it (a peak's neighbourhood reaches 5 frames back) and
 * after it (an anchor pairs with peaks up to 40 frames later, each decided over 5 more), so every
 * landmark of the piece is found as in one run over the whole.
 */
const PIECE_FRAMES_BEFORE = PEAK_TIME_REACH + 3;
const PIECE_FRAMES_AFTER = TARGET_MAX_FRAMES + PEAK_TIME_REACH + 3;

/**
 * fingerprintAudio in pieces of 5 s, one piece per step, so a caller can spread long audio over several
 * turns of its event loop; the pieces' landmarks together are nearly those of the whole (the loud level
 * that sets the peak floor is the piece's own).
 */
export function* fingerprintPieces(audio: VoiceAudio, startSeconds = 0): Generator<AudioFingerprint> {
  const { sampleRate, samples } = audio;
  const frameSamples = FINGERPRINT_FRAME_SECONDS * sampleRate;
  const totalFrames = Math.ceil(samples.length / frameSamples);
  const start = Math.round(startSeconds / FINGERPRINT_FRAME_SECONDS);
  for (let core = 0; core < Math.max(1, totalFrames); core += PIECE_FRAMES) {
    const from = Math.max(0, core - PIECE_FRAMES_BEFORE);
    const to = core + PIECE_FRAMES + PIECE_FRAMES_AFTER;
    const piece = samples.subarray(Math.round(from * frameSamples), Math.round(to * frameSamples));
    const found =
      piece.length > 0
        ? landmarks(toRate({ sampleRate, samples: piece }), 0)
        : { hashes: new Uint32Array(0), frames: new Uint32Array(0) };
    const hashes: number[] = [];
    const frames: number[] = [];
    for (let i = 0; i < found.hashes.length; i++) {
      const frame = from + (found.frames[i] as number);
      if (frame < core || frame >= core + PIECE_FRAMES) continue;
      hashes.push(found.hashes[i] as number);
      frames.push(frame + start);
    }
    yield {
      hashes: Uint32Array.from(hashes),
      frames: Uint32Array.from(frames),
      durationSeconds: Math.min(PIECE_FRAMES, totalFrames - core) * FINGERPRINT_FRAME_SECONDS,
    };
  }
}

/** The recording looked up is fingerprinted this many times, each a fraction of a frame later. */
const SEARCH_SHIFTS = 4;

/**
 * The landmarks of a recording to look up, taken {@link SEARCH_SHIFTS} times on frame grids a quarter
 * of a frame (4 ms) apart, one grid per step. A copy cut from the generated audio seldom starts on the
 * original's frame grid, and a peak's frame moves when the grid does (only a third of a 3 s excerpt's
 * landmarks stay when it starts half a frame off); one of the four grids is within 2 ms of the
 * original's. Each is aligned apart ({@link alignFingerprints}), so chance agreements do not add up.
 */
export function* searchFingerprintGrids(audio: VoiceAudio): Generator<AudioFingerprint> {
  const signal = toRate(audio);
  const durationSeconds = audio.samples.length / audio.sampleRate;
  for (let k = 0; k < SEARCH_SHIFTS; k++)
    yield { ...landmarks(signal.subarray(Math.round((k * HOP) / SEARCH_SHIFTS)), 0), durationSeconds };
}

/** searchFingerprintGrids, all at once. */
export function searchFingerprints(audio: VoiceAudio): AudioFingerprint[] {
  return [...searchFingerprintGrids(audio)];
}

/** One fingerprint from several in order (the sentences of one generation). */
export function concatFingerprints(parts: readonly AudioFingerprint[]): AudioFingerprint {
  const total = parts.reduce((n, p) => n + p.hashes.length, 0);
  const hashes = new Uint32Array(total);
  const frames = new Uint32Array(total);
  let at = 0;
  for (const part of parts) {
    hashes.set(part.hashes, at);
    frames.set(part.frames, at);
    at += part.hashes.length;
  }
  return { hashes, frames, durationSeconds: parts.reduce((s, p) => s + p.durationSeconds, 0) };
}

// ---- matching ----

/** A stored landmark of a reference recording (a generation), as a lookup by hash returns it. */
export interface FingerprintHit {
  referenceId: string;
  hash: number;
  frame: number;
}

/** How well a query lines up with one reference. */
export interface FingerprintMatch {
  referenceId: string;
  /** Landmarks of the query found in the reference at one time offset (give or take a frame). */
  alignedHashes: number;
  /** Where the query starts in the reference, in seconds (negative: before it). */
  offsetSeconds: number;
  /** From the first to the last aligned landmark, in seconds of the query. */
  spanSeconds: number;
}

/**
 * The fewest landmarks aligned at one offset that make a match. Measured (bench/pvc-verification.bench.ts):
 * other speech — other voices, other sentences, human recordings — lines up at most a handful by chance,
 * while 3 s of generated speech re-encoded, resampled and noisy keeps dozens.
 */
export const FINGERPRINT_MIN_ALIGNED = 15;

/**
 * Every reference's best alignment with the query, best first: the landmarks of the query found at one
 * time offset in the reference (an offset and the next one pooled, since the frames of a copy that
 * starts between two frames of the original fall on either). Given the fingerprints of one recording on
 * several grids (searchFingerprints), a reference's best grid counts.
 */
export function alignFingerprints(
  query: AudioFingerprint | readonly AudioFingerprint[],
  hits: Iterable<FingerprintHit>,
): FingerprintMatch[] {
  const grids = Array.isArray(query) ? (query as readonly AudioFingerprint[]) : [query as AudioFingerprint];
  // hash → [grid, frame] pairs of the query.
  const queryFrames = new Map<number, number[]>();
  for (const [grid, fingerprint] of grids.entries()) {
    for (let i = 0; i < fingerprint.hashes.length; i++) {
      const hash = fingerprint.hashes[i] as number;
      const list = queryFrames.get(hash);
      const entry = [grid, fingerprint.frames[i] as number];
      if (list) list.push(...entry);
      else queryFrames.set(hash, entry);
    }
  }
  // Per reference and grid: offset → the query frames that land there.
  const byReference = new Map<string, Map<number, number[]>[]>();
  for (const hit of hits) {
    const frames = queryFrames.get(hit.hash);
    if (!frames) continue;
    let perGrid = byReference.get(hit.referenceId);
    if (!perGrid) {
      perGrid = grids.map(() => new Map<number, number[]>());
      byReference.set(hit.referenceId, perGrid);
    }
    for (let k = 0; k < frames.length; k += 2) {
      const offsets = perGrid[frames[k] as number] as Map<number, number[]>;
      const frame = frames[k + 1] as number;
      const offset = hit.frame - frame;
      const at = offsets.get(offset);
      if (at) at.push(frame);
      else offsets.set(offset, [frame]);
    }
  }
  const matches: FingerprintMatch[] = [];
  for (const [referenceId, perGrid] of byReference) {
    let best = { count: 0, offset: 0, frames: [] as number[] };
    for (const offsets of perGrid) {
      for (const [offset, frames] of offsets) {
        const next = offsets.get(offset + 1) ?? [];
        const count = frames.length + next.length;
        if (count > best.count) best = { count, offset, frames: [...frames, ...next] };
      }
    }
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const frame of best.frames) {
      first = Math.min(first, frame);
      last = Math.max(last, frame);
    }
    matches.push({
      referenceId,
      alignedHashes: best.count,
      offsetSeconds: best.offset * FINGERPRINT_FRAME_SECONDS,
      spanSeconds: best.count > 0 ? (last - first) * FINGERPRINT_FRAME_SECONDS : 0,
    });
  }
  return matches.sort((a, b) => b.alignedHashes - a.alignedHashes);
}

/** How a query lines up with one reference fingerprint (alignFingerprints for a single reference). */
export function compareFingerprints(
  query: AudioFingerprint | readonly AudioFingerprint[],
  reference: AudioFingerprint,
): FingerprintMatch {
  const hits: FingerprintHit[] = Array.from(reference.hashes, (hash, i) => ({
    referenceId: 'reference',
    hash,
    frame: reference.frames[i] as number,
  }));
  return (
    alignFingerprints(query, hits)[0] ?? {
      referenceId: 'reference',
      alignedHashes: 0,
      offsetSeconds: 0,
      spanSeconds: 0,
    }
  );
}

// ---- analysis ----

/** The audio at 8 kHz, as floats (the Resampler's windowed-sinc low-pass keeps it free of aliasing). */
function toRate(audio: VoiceAudio): Float32Array {
  const { samples, sampleRate } = audio;
  if (!(Number.isInteger(sampleRate) && sampleRate >= RATE)) {
    throw new RangeError(
      `Fingerprints take audio at 8 kHz or more (a whole number of Hz), not ${sampleRate} Hz.`,
    );
  }
  const ints =
    samples instanceof Int16Array
      ? samples
      : Int16Array.from(samples, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32768))));
  let resampled: Int16Array = ints;
  if (sampleRate !== RATE) {
    const resampler = new Resampler(sampleRate, RATE);
    const head = resampler.push(ints);
    const tail = resampler.flush();
    resampled = new Int16Array(head.length + tail.length);
    resampled.set(head);
    resampled.set(tail, head.length);
  }
  return Float32Array.from(resampled, (v) => v / 32768);
}

/** The landmarks of an 8 kHz signal, frames counted from `startFrame`. */
function landmarks(signal: Float32Array, startFrame: number): { hashes: Uint32Array; frames: Uint32Array } {
  return pairPeaks(findPeaks(spectrogramDb(signal)), startFrame);
}

interface Spectrogram {
  frames: number;
  /** Level in dB of bins LOW_BIN…HIGH_BIN of each frame, frame after frame. */
  db: Float32Array;
}

const BINS = HIGH_BIN - LOW_BIN + 1;
let hann: Float64Array | undefined;

function spectrogramDb(signal: Float32Array): Spectrogram {
  hann ??= Float64Array.from(
    { length: FFT_SIZE },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FFT_SIZE),
  );
  const frames = signal.length >= FFT_SIZE ? Math.floor((signal.length - FFT_SIZE) / HOP) + 1 : 0;
  const db = new Float32Array(frames * BINS);
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  for (let f = 0; f < frames; f++) {
    const start = f * HOP;
    for (let i = 0; i < FFT_SIZE; i++) re[i] = (signal[start + i] ?? 0) * (hann[i] ?? 0);
    im.fill(0);
    fft(re, im);
    for (let b = 0; b < BINS; b++) {
      const k = LOW_BIN + b;
      const power = (re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2;
      db[f * BINS + b] = power > 1e-14 ? 10 * Math.log10(power) : -140;
    }
  }
  return { frames, db };
}

interface Peak {
  frame: number;
  bin: number;
}

/**
 * The spectrogram's local maxima over ±PEAK_TIME_REACH frames and ±PEAK_BIN_REACH bins, no more than
 * PEAK_FLOOR_DB under the loud frames, in time order.
 */
function findPeaks({ frames, db }: Spectrogram): Peak[] {
  if (frames === 0) return [];
  // The maximum over ±PEAK_BIN_REACH bins, then over ±PEAK_TIME_REACH frames of that.
  const alongBins = new Float32Array(db.length);
  for (let f = 0; f < frames; f++) {
    const row = f * BINS;
    for (let b = 0; b < BINS; b++) {
      let max = -Infinity;
      for (let c = Math.max(0, b - PEAK_BIN_REACH); c <= Math.min(BINS - 1, b + PEAK_BIN_REACH); c++)
        max = Math.max(max, db[row + c] ?? -Infinity);
      alongBins[row + b] = max;
    }
  }
  const frameMax = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let max = -Infinity;
    for (let b = 0; b < BINS; b++) max = Math.max(max, db[f * BINS + b] ?? -Infinity);
    frameMax[f] = max;
  }
  const loud = percentile(Float32Array.from(frameMax).sort(), 0.95);
  const floor = loud - PEAK_FLOOR_DB;
  const peaks: Peak[] = [];
  for (let f = 0; f < frames; f++) {
    if ((frameMax[f] ?? -Infinity) < floor) continue;
    for (let b = 0; b < BINS; b++) {
      const level = db[f * BINS + b] ?? -Infinity;
      if (level < floor || level < (alongBins[f * BINS + b] ?? Infinity)) continue;
      // The loudest of its neighbourhood; of equal levels in one bin the earliest frame is the peak.
      let isPeak = true;
      for (let g = Math.max(0, f - PEAK_TIME_REACH); g <= Math.min(frames - 1, f + PEAK_TIME_REACH); g++) {
        const other = alongBins[g * BINS + b] ?? -Infinity;
        if ((g < f && other >= level) || (g > f && other > level)) {
          isPeak = false;
          break;
        }
      }
      if (isPeak) peaks.push({ frame: f, bin: b + LOW_BIN });
    }
  }
  return peaks;
}

/** Each peak paired with the first FAN_OUT peaks of its target zone: (bin, bin difference, frames) hashed. */
function pairPeaks(peaks: readonly Peak[], startFrame: number): { hashes: Uint32Array; frames: Uint32Array } {
  const hashes: number[] = [];
  const frames: number[] = [];
  for (let i = 0; i < peaks.length; i++) {
    const anchor = peaks[i] as Peak;
    let paired = 0;
    for (let j = i + 1; j < peaks.length && paired < FAN_OUT; j++) {
      const target = peaks[j] as Peak;
      const dt = target.frame - anchor.frame;
      if (dt > TARGET_MAX_FRAMES) break;
      if (dt < 1) continue;
      const dBin = target.bin - anchor.bin;
      if (Math.abs(dBin) > TARGET_MAX_BINS) continue;
      // 8 bits of anchor bin, 7 of bin difference, 6 of frames apart: 21 bits.
      hashes.push((anchor.bin << 13) | ((dBin + 64) << 6) | dt);
      frames.push(anchor.frame + startFrame);
      paired++;
    }
  }
  return { hashes: Uint32Array.from(hashes), frames: Uint32Array.from(frames) };
}

function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}
