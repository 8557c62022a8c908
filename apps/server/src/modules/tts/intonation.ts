import { pitchTrack } from '@parla/audio';
import type { PitchPoint } from '../../platform/media/voice-transform';

/** Frames (10 ms) each side of the moving average that smooths the pitch contour: ±20 ms. */
const SMOOTHING_FRAMES = 2;
/** A point every this many frames (20 ms): finer than syllables, coarser than the pitch track's jitter. */
const POINT_EVERY_FRAMES = 2;
/** Changes smaller than this (semitones) are not sent: nobody hears 5 cents. */
const MIN_STEP_SEMITONES = 0.05;
/** The furthest a point moves the pitch (semitones): beyond, a widened contour sounds like yodelling. */
const MAX_SHIFT_SEMITONES = 8;
/** Below this many voiced frames (0.15 s) there is no intonation to widen. */
const MIN_VOICED_FRAMES = 15;

/**
 * The pitch curve (voice-transform's `pitchCurve`) that scales the intonation of speech by `range`: the
 * pitch contour, measured in semitones around its median (YIN, pitchTrack), smoothed and carried across
 * unvoiced stretches, is multiplied by `range` — 0 flattens it, 1 keeps it, 2 doubles every rise and
 * fall. The pass for engines that have no intonation setting of their own (issue 18 item 3).
 */
export function intonationCurve(
  audio: { sampleRate: number; samples: Int16Array },
  range: number,
): PitchPoint[] {
  if (Math.abs(range - 1) < 0.01 || audio.samples.length === 0) return [];
  const track = pitchTrack(audio);
  const semitones = Array.from(track.pitchHz, (hz) => (Number.isNaN(hz) ? Number.NaN : 12 * Math.log2(hz)));
  const voiced = semitones.filter((st) => !Number.isNaN(st)).sort((a, b) => a - b);
  if (voiced.length < MIN_VOICED_FRAMES) return [];
  const median = voiced[Math.floor(voiced.length / 2)] as number;
  const contour = fillGaps(semitones.map((st) => st - median));
  const points: PitchPoint[] = [];
  let last = Number.NaN;
  for (let f = 0; f < contour.length; f += POINT_EVERY_FRAMES) {
    let sum = 0;
    let count = 0;
    for (
      let k = Math.max(0, f - SMOOTHING_FRAMES);
      k <= Math.min(contour.length - 1, f + SMOOTHING_FRAMES);
      k++
    ) {
      sum += contour[k] as number;
      count++;
    }
    const shift = Math.max(-MAX_SHIFT_SEMITONES, Math.min(MAX_SHIFT_SEMITONES, (range - 1) * (sum / count)));
    if (!Number.isNaN(last) && Math.abs(shift - last) < MIN_STEP_SEMITONES) continue;
    last = shift;
    // A frame is 40 ms from f·10 ms: its pitch belongs to its middle. The first point starts the audio.
    const atSeconds = points.length === 0 ? 0 : f * track.hopSeconds + 0.02;
    points.push({ atSeconds, ratio: 2 ** (shift / 12) });
  }
  return points;
}

/** NaN frames take the value interpolated between their voiced neighbours (the nearest one at the ends). */
function fillGaps(values: number[]): number[] {
  const out = values.slice();
  let previous = -1;
  for (let i = 0; i <= out.length; i++) {
    if (i < out.length && Number.isNaN(out[i])) continue;
    const from = previous >= 0 ? (out[previous] as number) : undefined;
    const to = i < out.length ? (out[i] as number) : undefined;
    for (let k = previous + 1; k < i; k++) {
      if (from === undefined) out[k] = to ?? 0;
      else if (to === undefined) out[k] = from;
      else out[k] = from + ((to - from) * (k - previous)) / (i - previous);
    }
    previous = i;
  }
  return out;
}
