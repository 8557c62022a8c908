/*
 * Audio events for speech to text (`tag_audio_events`, issue 19: "Audio events only where really
 * detected (no invented tags)"). One event is detected: music, in the stretches outside speech. Music
 * holds tones: its spectrum has peaks far above its floor (low spectral flatness) that stay at the same
 * frequencies from frame to frame for the length of a note; noise has no peaks, silence no level, and
 * speech's voiced peaks glide with its intonation and break at every consonant. A stretch of at least
 * 1 s where most frames are tonal and steady is `music`. Laughter, applause, footsteps and the like are
 * not detected: nothing here could tell them apart honestly, so they are never reported.
 * Measured in audio-events.test.ts on synthetic chords and melodies, white and pink-ish noise, silence and
 * TTS speech. Pure and synchronous; 16 kHz mono floats.
 */
import { fft } from '@parla/audio';
import type { HeardEvent } from './stt-provider';

const SAMPLE_RATE = 16_000;
/** 64 ms frames every 32 ms. */
const FRAME = 1024;
const HOP = 512;
/** The band looked at: where melodies and chords live, above hum. */
const LOW_HZ = 150;
const HIGH_HZ = 4000;
/** A frame this quiet is silence, not music. */
const SILENCE_DBFS = -50;
/** Spectral flatness (geometric over arithmetic mean of the power) under this is tonal; noise is ~0.5+. */
const TONAL_FLATNESS = 0.12;
/**
 * Peaks are compared from here up: a bin is 15.6 Hz, coarser than a speaking voice's glide at its first
 * harmonics, while its harmonics above 400 Hz move by bins as its pitch moves.
 */
const PEAK_LOW_HZ = 400;
/** The strongest peaks compared between frames, and the share that must stay within a bin. */
const PEAKS = 3;
const STEADY_SHARE = 2 / 3;
/** Steady frames in a row that make a held note: 6 × 32 ms ≈ 0.2 s. */
const HELD_FRAMES = 6;
/** A music stretch lasts at least this long, and this share of its frames is tonal and steady. */
const MIN_SECONDS = 1;
const MUSIC_SHARE = 0.6;
/** Non-speech stretches shorter than this are not looked at. */
const MIN_GAP_SECONDS = 1;

/** Music found outside `speech` (seconds from the samples' start), as events labelled `music`. */
export function detectAudioEvents(
  samples: Float32Array,
  speech: { start: number; end: number }[],
): HeardEvent[] {
  const duration = samples.length / SAMPLE_RATE;
  const events: HeardEvent[] = [];
  for (const gap of gapsBetween(speech, duration)) {
    if (gap.end - gap.start < MIN_GAP_SECONDS) continue;
    const from = Math.floor(gap.start * SAMPLE_RATE);
    const to = Math.min(samples.length, Math.ceil(gap.end * SAMPLE_RATE));
    for (const run of musicRuns(samples.subarray(from, to)))
      events.push({ label: 'music', start: round(gap.start + run.start), end: round(gap.start + run.end) });
  }
  return events;
}

/** The stretches of [0, duration] outside the speech segments. */
function gapsBetween(
  speech: readonly { start: number; end: number }[],
  duration: number,
): { start: number; end: number }[] {
  const sorted = [...speech].sort((a, b) => a.start - b.start);
  const gaps: { start: number; end: number }[] = [];
  let at = 0;
  for (const s of sorted) {
    if (s.start > at) gaps.push({ start: at, end: Math.min(duration, s.start) });
    at = Math.max(at, s.end);
  }
  if (at < duration) gaps.push({ start: at, end: duration });
  return gaps.filter((g) => g.end > g.start);
}

/** Runs of music in a stretch, in seconds from its start. */
function musicRuns(samples: Float32Array): { start: number; end: number }[] {
  const count = Math.max(0, Math.floor((samples.length - FRAME) / HOP) + 1);
  const low = Math.ceil((LOW_HZ * FRAME) / SAMPLE_RATE);
  const high = Math.floor((HIGH_HZ * FRAME) / SAMPLE_RATE);
  const re = new Float64Array(FRAME);
  const im = new Float64Array(FRAME);
  const tonal = new Uint8Array(count);
  const peaks: number[][] = [];
  for (let f = 0; f < count; f++) {
    re.fill(0);
    im.fill(0);
    let power = 0;
    for (let i = 0; i < FRAME; i++) {
      const v = samples[f * HOP + i] as number;
      power += v * v;
      re[i] = v * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (FRAME - 1)));
    }
    const level = 10 * Math.log10(power / FRAME + 1e-12);
    const spectrum: number[] = [];
    let logSum = 0;
    let sum = 0;
    if (level >= SILENCE_DBFS) {
      fft(re, im);
      for (let k = low; k <= high; k++) {
        const p = (re[k] as number) ** 2 + (im[k] as number) ** 2 + 1e-12;
        spectrum.push(p);
        logSum += Math.log(p);
        sum += p;
      }
    }
    const n = spectrum.length;
    const flatness = n > 0 ? Math.exp(logSum / n) / (sum / n) : 1;
    tonal[f] = n > 0 && flatness < TONAL_FLATNESS ? 1 : 0;
    const peakFrom = Math.ceil((PEAK_LOW_HZ * FRAME) / SAMPLE_RATE) - low;
    peaks.push(n > 0 ? strongestPeaks(spectrum.slice(peakFrom)).map((k) => k + low + peakFrom) : []);
  }
  // A tonal frame is steady when most of its strongest peaks are where they were two frames (64 ms) before;
  // it counts as music inside a run of at least HELD_FRAMES steady frames (a held note, not a vowel).
  const steady = new Uint8Array(count);
  for (let f = 2; f < count; f++) {
    if (!tonal[f] || !tonal[f - 1] || !tonal[f - 2]) continue;
    const before = peaks[f - 2] as number[];
    const kept = (peaks[f] as number[]).filter((k) => before.some((b) => Math.abs(b - k) <= 1)).length;
    if (kept >= STEADY_SHARE * PEAKS) steady[f] = 1;
  }
  const music = new Uint8Array(count);
  for (let f = 0; f < count; ) {
    let g = f;
    while (g < count && steady[g]) g += 1;
    if (g - f >= HELD_FRAMES) music.fill(1, f, g);
    f = Math.max(g, f + 1);
  }
  // Windows of MIN_SECONDS with enough music frames, merged.
  const window = Math.round((MIN_SECONDS * SAMPLE_RATE) / HOP);
  const runs: { start: number; end: number }[] = [];
  let inWindow = 0;
  for (let f = 0; f < count; f++) {
    inWindow += music[f] as number;
    if (f >= window) inWindow -= music[f - window] as number;
    if (f + 1 < window || inWindow < MUSIC_SHARE * window) continue;
    const start = ((f + 1 - window) * HOP) / SAMPLE_RATE;
    const end = (f * HOP + FRAME) / SAMPLE_RATE;
    const last = runs.at(-1);
    if (last && start <= last.end) last.end = end;
    else runs.push({ start, end });
  }
  return runs;
}

/** The bins of the strongest local maxima of a power spectrum, at most PEAKS of them. */
function strongestPeaks(spectrum: readonly number[]): number[] {
  const maxima: number[] = [];
  for (let k = 1; k + 1 < spectrum.length; k++)
    if (
      (spectrum[k] as number) > (spectrum[k - 1] as number) &&
      (spectrum[k] as number) >= (spectrum[k + 1] as number)
    )
      maxima.push(k);
  return maxima.sort((a, b) => (spectrum[b] as number) - (spectrum[a] as number)).slice(0, PEAKS);
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
