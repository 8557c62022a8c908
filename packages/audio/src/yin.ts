/**
 * YIN pitch detection (de Cheveigné & Kawahara, 2002), steps 2–5: the difference function, its cumulative
 * mean normalisation, the absolute threshold (then the local minimum after it) and parabolic interpolation.
 * Written here rather than taken from npm: the package measured in the research (pitchfinder) is GPL-3.0
 * and adds a constant to its running sum, which makes quiet frames report nonsense.
 */

export interface YinOptions {
  sampleRate: number;
  /** The aperiodicity under which a lag is taken as the period (the paper's 0.1; higher finds more). */
  threshold?: number;
}

/**
 * The fundamental frequency of one frame in Hz, or null when no lag is periodic enough. The window is
 * half the frame: lags go up to half the frame's length, so a frame of N samples finds pitches down to
 * about 2·sampleRate / N.
 */
export function yinPitch(
  frame: ArrayLike<number>,
  { sampleRate, threshold = 0.1 }: YinOptions,
): number | null {
  const half = Math.floor(frame.length / 2);
  if (half < 3) return null;
  // d(τ) = Σ_j (x_j − x_{j+τ})², over a window of `half` samples.
  const diff = new Float64Array(half);
  for (let tau = 1; tau < half; tau++) {
    let sum = 0;
    for (let j = 0; j < half; j++) {
      const delta = (frame[j] ?? 0) - (frame[j + tau] ?? 0);
      sum += delta * delta;
    }
    diff[tau] = sum;
  }
  // d'(τ) = d(τ) · τ / Σ_{j≤τ} d(j), with d'(0) = 1.
  const cmnd = new Float64Array(half);
  cmnd[0] = 1;
  let running = 0;
  for (let tau = 1; tau < half; tau++) {
    running += diff[tau] ?? 0;
    cmnd[tau] = running === 0 ? 1 : ((diff[tau] ?? 0) * tau) / running;
  }
  // The first lag under the threshold, then on to the bottom of its dip.
  let tau = 2;
  while (tau < half && (cmnd[tau] ?? 1) >= threshold) tau++;
  if (tau >= half) return null;
  while (tau + 1 < half && (cmnd[tau + 1] ?? 1) < (cmnd[tau] ?? 1)) tau++;
  // A parabola through the dip and its neighbours places the minimum between samples.
  const before = cmnd[tau - 1] ?? 1;
  const at = cmnd[tau] ?? 1;
  const after = tau + 1 < half ? (cmnd[tau + 1] ?? 1) : at;
  const curvature = before - 2 * at + after;
  const shift = curvature > 0 ? (before - after) / (2 * curvature) : 0;
  const period = tau + Math.max(-1, Math.min(1, shift));
  return period > 0 ? sampleRate / period : null;
}
