/*
 * Fitting dubbed speech into its time slot and mixing the dubbed track (issue 29; docs/decisions/
 * 0024-dubbing.md, "Media: fitting, mixing, rendering"). Mono Float32 PCM in [-1, 1] throughout.
 */
import { Resampler } from '@parla/audio';
import { AppError } from '../errors';
import { runMediaTool } from './run-media-tool';

/**
 * The tempo bounds of fitted speech. Never faster than 1.4×: past that, synthetic speech turns hard to
 * follow and atempo's splices start to be heard. Never slower than 0.9×: slowed speech drawls; and speech
 * shorter than its slot is left at its natural pace unless the caller asks to fill the slot.
 */
export const DUB_TEMPO_MIN = 0.9;
export const DUB_TEMPO_MAX = 1.4;

export interface TempoBounds {
  min: number;
  max: number;
}

/** Silence under this level (dBFS, 10 ms RMS) at either end of synthesized speech is trimmed. */
export const SILENCE_FLOOR_DB = -50;
/** Also trimmed: what is this far under the speech's loudest 10 ms (a breath, the engine's noise floor). */
export const SILENCE_BELOW_PEAK_DB = 40;
/** Kept on either side of the speech, so a soft onset or a final consonant's release is not cut. */
export const SILENCE_MARGIN_SEC = 0.02;

const dbToGain = (db: number) => 10 ** (db / 20);

/**
 * Trims the silence engines pad speech with at the start and end (Kokoro and eSpeak add 0.1–0.3 s), so
 * the speech starts at its slot's start and its length is the speech's own. Returns a view, not a copy.
 */
export function trimSilence(
  pcm: Float32Array,
  sampleRate: number,
): { pcm: Float32Array; leadSec: number; trailSec: number } {
  const frame = Math.max(1, Math.round(sampleRate * 0.01));
  const frames = Math.ceil(pcm.length / frame);
  const rms = new Float32Array(frames);
  let peak = 0;
  for (let f = 0; f < frames; f += 1) {
    let sum = 0;
    const end = Math.min(pcm.length, (f + 1) * frame);
    for (let i = f * frame; i < end; i += 1) sum += (pcm[i] as number) ** 2;
    rms[f] = Math.sqrt(sum / Math.max(1, end - f * frame));
    peak = Math.max(peak, rms[f] as number);
  }
  const threshold = Math.max(dbToGain(SILENCE_FLOOR_DB), peak * dbToGain(-SILENCE_BELOW_PEAK_DB));
  let first = 0;
  while (first < frames && (rms[first] as number) < threshold) first += 1;
  if (first === frames) return { pcm: pcm.subarray(0, 0), leadSec: pcm.length / sampleRate, trailSec: 0 };
  let last = frames - 1;
  while (last > first && (rms[last] as number) < threshold) last -= 1;
  const margin = Math.round(SILENCE_MARGIN_SEC * sampleRate);
  const start = Math.max(0, first * frame - margin);
  const end = Math.min(pcm.length, (last + 1) * frame + margin);
  return {
    pcm: pcm.subarray(start, end),
    leadSec: start / sampleRate,
    trailSec: (pcm.length - end) / sampleRate,
  };
}

export interface FitResult {
  /** The fitted speech, silence trimmed, at the input's rate. */
  pcm: Float32Array;
  /** The speed applied: > 1 faster, 1 untouched. */
  tempo: number;
  /** How long the speech lasts at its natural pace, silence trimmed. */
  naturalSec: number;
  /** How far the fitted speech runs past its slot (0 when it fits): the caller decides (see the ADR). */
  overflowSec: number;
}

/**
 * Fits synthesized speech into a slot of `slotSec`: trims the engine's silence, then speeds it up just
 * enough to fit (pitch kept: ffmpeg's `atempo`, a WSOLA stretch), never past `bounds.max`. Speech
 * shorter than the slot keeps its natural pace, or with `fill` is slowed towards the slot, never below
 * `bounds.min`. Speech still too long at `bounds.max` comes back at that tempo with `overflowSec` > 0.
 * atempo rather than Rubber Band (which Debian's ffmpeg also has): on flite speech at 1.15× and 1.4×
 * both kept the median pitch within 1 Hz and the frame-to-frame pitch jumps (YIN, p90) within 3 cents of
 * each other, one way or the other — no measurable gain — and atempo took 6× less CPU (0.06 s against
 * 0.39 s for 63 s of speech). Listening was not measured; see the ADR.
 */
export async function fitToSlot(
  pcm: Float32Array,
  sampleRate: number,
  slotSec: number,
  options: { bounds?: TempoBounds; fill?: boolean; timeoutMs?: number } = {},
): Promise<FitResult> {
  const bounds = options.bounds ?? { min: DUB_TEMPO_MIN, max: DUB_TEMPO_MAX };
  if (!(bounds.min > 0 && bounds.min <= 1 && bounds.max >= 1 && bounds.max <= 4)) {
    throw new RangeError(`Tempo bounds ${bounds.min}–${bounds.max} must hold 1 and lie in (0, 4].`);
  }
  if (!(slotSec > 0)) throw new RangeError(`A slot of ${slotSec} s holds no speech.`);
  const speech = trimSilence(pcm, sampleRate).pcm;
  const naturalSec = speech.length / sampleRate;
  if (naturalSec === 0) return { pcm: speech, tempo: 1, naturalSec, overflowSec: 0 };
  let tempo = naturalSec / slotSec;
  if (tempo < 1 && !options.fill) tempo = 1;
  tempo = Math.min(bounds.max, Math.max(bounds.min, tempo));
  // Within a hundredth of natural pace: not worth a stretch's artefacts.
  const fitted =
    Math.abs(tempo - 1) < 0.01 ? speech : await stretch(speech, sampleRate, tempo, options.timeoutMs);
  if (fitted === speech) tempo = 1;
  const overflowSec = Math.max(0, fitted.length / sampleRate - slotSec);
  return { pcm: fitted, tempo, naturalSec, overflowSec: Math.round(overflowSec * 1000) / 1000 };
}

/** Time-stretches mono Float32 PCM by `tempo` with ffmpeg's atempo; the result is cut or padded to length. */
async function stretch(pcm: Float32Array, sampleRate: number, tempo: number, timeoutMs = 30_000) {
  const result = await runMediaTool(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-f',
      'f32le',
      '-ar',
      String(sampleRate),
      '-ac',
      '1',
      '-i',
      'pipe:0',
      '-af',
      `atempo=${tempo.toFixed(4)}`,
      '-f',
      'f32le',
      'pipe:1',
    ],
    { input: new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength), timeoutMs },
  );
  if (result.exit.code !== 0 || result.timedOut) {
    throw new AppError('internal_error', 'Fitting the speech to its time slot failed.', {
      cause: new Error(result.exit.stderr.slice(0, 300)),
    });
  }
  // atempo's output is within a few milliseconds of length/tempo; made exact, so slots add up.
  const out = new Float32Array(Math.round(pcm.length / tempo));
  const got = Math.min(out.length, Math.floor(result.stdout.byteLength / 4));
  const view = new Float32Array(got);
  Buffer.from(view.buffer).set(result.stdout.subarray(0, got * 4));
  out.set(view);
  return out;
}

/** Resamples mono Float32 PCM with @parla/audio's windowed-sinc resampler (through 16-bit: TTS's depth). */
export function resampleFloat(pcm: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate) return pcm;
  const int = floatToInt16(pcm);
  const resampler = new Resampler(fromRate, toRate);
  const head = resampler.push(int);
  const tail = resampler.flush();
  // Its first output is centred on the first input sample (it primes itself with silence): no lag.
  const joined = new Int16Array(head.length + tail.length);
  joined.set(head);
  joined.set(tail, head.length);
  const wanted = Math.round((pcm.length * toRate) / fromRate);
  const out = new Float32Array(wanted);
  for (let i = 0; i < wanted; i += 1) out[i] = (joined[i] ?? 0) / 32767;
  return out;
}

/** A dubbed segment placed on the track. */
export interface DubClip {
  /** Where the speech starts on the output's timeline (seconds from the output's start). */
  startSec: number;
  pcm: Float32Array;
  sampleRate: number;
  /** The speaker's id or name (tracks_zip groups by it; clips_zip names files by it). */
  speaker?: string;
}

export interface DubMixInput {
  /** The source's sound at `sampleRate` (extractMixAudio), or null for none. */
  background: Float32Array | null;
  /** The mixing rate (MIX_SAMPLE_RATE). */
  sampleRate: number;
  /** The output's exact length. */
  durationSec: number;
  clips: readonly DubClip[];
  /**
   * `duck`: the source's sound stays, lowered by `duckDb` while dubbed speech plays. `drop` (the API's
   * `drop_background_audio`): no source sound at all. There is no offline source separation (no model
   * here splits a voice from its music and effects), so dropping the source's voices drops its
   * background with them; the track is then the dubbed speech alone.
   */
  mode: 'duck' | 'drop';
  duckDb?: number;
}

/**
 * How far the source is lowered under dubbed speech. −20 dB puts the source's own voice 20 dB under the
 * dub — heard as room tone, not as words that compete with the translation — while music and effects
 * stay audible (broadcast voice-over practice is −15 to −25 dB).
 */
export const DEFAULT_DUCK_DB = -20;
/** The fall to the ducked level ends as the speech starts (look-ahead), so its first syllable is clear. */
export const DUCK_ATTACK_SEC = 0.15;
/** The rise back after the speech ends: slower than the fall, so the background does not pump between sentences. */
export const DUCK_RELEASE_SEC = 0.2;
/** Sums above this (−1 dBFS) are bent smoothly under full scale instead of clipping. */
export const LIMIT_KNEE = 0.891;

/** A raised-cosine ramp from 0 to 1 over [0, 1]: no corner, so no click at either end. */
const smoothStep = (x: number) => 0.5 - 0.5 * Math.cos(Math.PI * Math.min(1, Math.max(0, x)));

/**
 * The gain the background gets at each sample: 1 away from speech, `duckDb` under each clip, with
 * raised-cosine ramps (in dB) of DUCK_ATTACK_SEC before each clip and DUCK_RELEASE_SEC after it. A clip's
 * whole extent ducks, pauses inside it included: unducking between words would pump.
 */
export function duckEnvelope(
  length: number,
  sampleRate: number,
  spans: readonly { start: number; end: number }[],
  duckDb = DEFAULT_DUCK_DB,
): Float32Array {
  // Depth in dB per sample (0 = untouched, 1 = fully ducked); the deepest of overlapping ramps wins.
  const depth = new Float32Array(length);
  const attack = Math.round(DUCK_ATTACK_SEC * sampleRate);
  const release = Math.round(DUCK_RELEASE_SEC * sampleRate);
  for (const { start, end } of spans) {
    const from = Math.max(0, start - attack);
    const to = Math.min(length, end + release);
    for (let i = from; i < to; i += 1) {
      let d = 1;
      if (i < start) d = smoothStep((i - (start - attack)) / attack);
      else if (i >= end) d = 1 - smoothStep((i - end) / release);
      if (d > (depth[i] as number)) depth[i] = d;
    }
  }
  const gain = new Float32Array(length);
  for (let i = 0; i < length; i += 1) gain[i] = dbToGain(duckDb * (depth[i] as number));
  return gain;
}

/** Keeps a sum within full scale: untouched up to LIMIT_KNEE, then bent by tanh towards ±1 (reached only by sums far past it). */
export function limitSample(x: number): number {
  const a = Math.abs(x);
  if (a <= LIMIT_KNEE) return x;
  const room = 1 - LIMIT_KNEE;
  return Math.sign(x) * (LIMIT_KNEE + room * Math.tanh((a - LIMIT_KNEE) / room));
}

/**
 * Builds the dubbed track: each clip resampled to the mix rate and placed at its `startSec`, over the
 * source's sound ducked under the speech (or none: `drop`). Overlapping clips add, and every sum goes
 * through limitSample. The result lasts exactly `durationSec`; a clip past the end is cut there.
 */
export function buildDubbedTrack(input: DubMixInput): Float32Array {
  const { sampleRate } = input;
  const length = Math.round(input.durationSec * sampleRate);
  const out = new Float32Array(length);
  const placed = input.clips.map((clip) => ({
    start: Math.round(Math.max(0, clip.startSec) * sampleRate),
    pcm: resampleFloat(clip.pcm, clip.sampleRate, sampleRate),
  }));
  const spans = placed.map((c) => ({ start: c.start, end: c.start + c.pcm.length }));
  if (input.mode === 'duck' && input.background) {
    const gain = duckEnvelope(length, sampleRate, spans, input.duckDb ?? DEFAULT_DUCK_DB);
    const bg = input.background;
    const n = Math.min(length, bg.length);
    for (let i = 0; i < n; i += 1) out[i] = (bg[i] as number) * (gain[i] as number);
  }
  for (const clip of placed) {
    const n = Math.min(clip.pcm.length, length - clip.start);
    for (let i = 0; i < n; i += 1)
      out[clip.start + i] = (out[clip.start + i] as number) + (clip.pcm[i] as number);
  }
  for (let i = 0; i < length; i += 1) out[i] = limitSample(out[i] as number);
  return out;
}

/** Float32 PCM in [-1, 1] as 16-bit samples (for WAV and the encoders). */
export function floatToInt16(pcm: Float32Array): Int16Array {
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i += 1) {
    out[i] = Math.max(-32768, Math.min(32767, Math.round((pcm[i] as number) * 32767)));
  }
  return out;
}
