import { clamp } from './clamp';
import { yinPitch } from './yin';

/*
 * Voice profiles for instant cloning on the offline engines (issue 7): what a sample's voice sounds like,
 * measured well enough to shift an engine's output towards it (median pitch, formant scale) and to tell
 * similar voices apart. Pure and synchronous; mono input at 8–48 kHz.
 *
 * Every measurement runs on one frame grid: 40 ms frames every 10 ms. Levels and loudness come from the
 * input as given; pitch runs on a 3 kHz copy and the spectrum on an 8 kHz copy (telephone band), so
 * samples recorded at different rates give comparable profiles and 60 s of speech analyses in a small
 * fraction of a second.
 */

/** Why a profile has no pitch: a caller refuses such a sample ("no voiced speech found"). */
export type PitchUnavailableReason = 'no-speech' | 'no-voiced-speech';

/** Messages for {@link PitchUnavailableReason}, fit to show to whoever uploaded the sample. */
export const PITCH_UNAVAILABLE_MESSAGES: Record<PitchUnavailableReason, string> = {
  'no-speech': 'No speech found: the sample is silent.',
  'no-voiced-speech': 'No voiced speech found: the sample holds noise, whispering or too little speech.',
};

interface PitchCounts {
  /** Share (0–1) of the speech frames in which a pitch was measured and kept. */
  voicedShare: number;
  /** Frames (10 ms each) with a kept pitch measurement. */
  voicedFrames: number;
}

/** Fundamental frequency over the voiced frames, in Hz; all null (with the reason) below 20 frames. */
export type VoicePitch =
  | (PitchCounts & {
      medianHz: number;
      /** 10th percentile: the low end of the speaker's range. */
      p10Hz: number;
      /** 90th percentile: the high end of the speaker's range. */
      p90Hz: number;
      unavailable: null;
    })
  | (PitchCounts & { medianHz: null; p10Hz: null; p90Hz: null; unavailable: PitchUnavailableReason });

/** Timbre, from the voiced frames in the 60 Hz – 3.4 kHz band; null fields without voiced frames. */
export interface SpectralEnvelope {
  /**
   * Long-term average spectrum in 24 mel-spaced triangular bands from 60 Hz to 3.4 kHz, in dB relative
   * to the bands' mean (the level of the recording does not count, only the shape).
   */
  melBandsDb: number[] | null;
  /** Power-weighted mean frequency of that spectrum, in Hz. */
  spectralCentroidHz: number | null;
  /**
   * Mean F1, F2, F3 in Hz (geometric, over the middle 80% of values) over the voiced frames where LPC
   * (order 10 at 8 kHz) found three formants; null below 20 such frames. Not a median: over a few vowels
   * the median jumps from one vowel's formant to another's as frames come and go.
   */
  formantsHz: [number, number, number] | null;
}

/** What a voice sounds like, measured from one sample or merged from several. */
export interface VoiceProfile {
  /** Bumped when the analysis changes: profiles of different versions do not compare. */
  version: 1;
  /** Length of the analysed audio, in seconds. */
  durationSeconds: number;
  /** Non-silent time, in seconds (frames above the energy gate, 10 ms each). */
  speechSeconds: number;
  pitch: VoicePitch;
  /**
   * Syllable nuclei per second of speech: peaks of the level envelope in voiced frames, each parted from
   * the previous one by a dip of at least 2 dB (de Jong & Wempe 2009). Null without speech.
   */
  speakingRate: number | null;
  loudness: {
    /** RMS level over the speech frames, in dBFS (a full-scale sine is −3 dBFS); null without speech. */
    rmsDbfs: number | null;
    /** Highest absolute sample, in dBFS, floored at −120. */
    peakDbfs: number;
  };
  spectralEnvelope: SpectralEnvelope;
  /**
   * The timbre as speaker verification compares it (issue 26 item 7): statistics of the voiced frames'
   * mel-cepstrum. Absent without voiced frames, and in profiles measured before it existed.
   */
  cepstrum?: CepstralStatistics;
}

/**
 * Mean and covariance of c1…c12, the cosine transform of the 24 mel band levels (dB) of the spectral
 * envelope's frames. The covariance, unlike the mean, hardly moves with the microphone or the room (a
 * fixed filter adds a constant to every frame's cepstrum), and over a few seconds it hardly follows what
 * is said: it is the classic text-independent measure of a speaker (Bimbot et al. 1995).
 */
export interface CepstralStatistics {
  /** Frames measured (40 ms windows, every voiced 10 ms step). */
  frames: number;
  /** CEPSTRAL_COEFFICIENTS values. */
  mean: number[];
  /** CEPSTRAL_COEFFICIENTS² values, row after row (symmetric). */
  covariance: number[];
}

/** Mono audio: 16-bit samples, or floats in −1…1. */
export interface VoiceAudio {
  sampleRate: number;
  samples: Int16Array | Float32Array;
}

const MIN_SAMPLE_RATE = 8000;
const MAX_SAMPLE_RATE = 48000;
const HOP_SECONDS = 0.01;
const FRAME_SECONDS = 0.04;
const DB_FLOOR = -120;
/** Frames quieter than this are silence, whatever the rest of the sample. */
const SILENCE_DBFS = -60;

/**
 * Pitch runs on a 3 kHz copy (low-passed at 1.35 kHz, as pitch trackers' coarse passes do): YIN costs the
 * square of its window, and 128 samples there span 43 ms with lags down to 47.6 Hz.
 */
const PITCH_RATE = 3000;
/**
 * YIN's window is half the frame, and its lags go up to that: 129 samples give lags up to 63 samples,
 * i.e. 47.6 Hz at 3 kHz.
 */
const PITCH_BUFFER = 129;
const MIN_PITCH_HZ = 50;
const MAX_PITCH_HZ = 500;
/**
 * YIN's aperiodicity threshold. The paper's 0.1 found pitch in only 34% of eSpeak's speech at a low
 * pitch setting; 0.2 finds it in 53%, with the median 1% apart, and still none in noise (octave errors
 * it lets in are rejected below).
 */
const YIN_THRESHOLD = 0.2;
/** Fewer kept pitch frames than this (0.2 s of voicing) and the pitch is not reported. */
const MIN_VOICED_FRAMES = 20;
/**
 * A frame further than this (in octaves, ≈ 7 semitones) from the running median of its neighbours is
 * an octave error. Octave errors land a whole octave off, intonation within a second rarely moves
 * more than a fifth from its median, and a few true frames lost do not move the median.
 */
const OCTAVE_ERROR_TOLERANCE = 0.6;
/** The running median spans this many kept-pitch neighbours on each side (about 0.5 s of voicing). */
const RUNNING_MEDIAN_HALF_WIDTH = 50;

/** The spectrum runs at 8 kHz (telephone band), so every accepted input rate has all of it. */
const SPECTRUM_RATE = 8000;
const FFT_SIZE = 512;
const MEL_BANDS = 24;
const ENVELOPE_LOW_HZ = 60;
/** The telephone band's upper edge: every accepted input rate (and the 8 kHz copy's filter) keeps it. */
const ENVELOPE_HIGH_HZ = 3400;
/** LPC at 8 kHz sees up to 4 kHz; poles above this are the filter's edge, not formants. */
const MAX_FORMANT_HZ = 3800;
/** LPC order for formants at 8 kHz: two poles per kHz plus two for the glottal source and radiation. */
const LPC_ORDER = 10;
/** Formant analysis uses the middle 25 ms of each 40 ms frame: formants move within a syllable. */
const LPC_WINDOW = 200;
const MIN_FORMANT_HZ = 90;
const MAX_FORMANT_BANDWIDTH_HZ = 400;
/** A syllable nucleus stands this far (dB) above the dip that separates it from the previous one. */
const NUCLEUS_DIP_DB = 2;

/**
 * Measures a voice from one mono sample (8–48 kHz). The pitch is null, with `pitch.unavailable` saying
 * why, when fewer than 20 frames (0.2 s) are voiced: refuse such a sample as a clone source.
 */
export function analyzeVoice(audio: VoiceAudio): VoiceProfile {
  const { input, levels, speech, spectrumSignal, rawPitch, keptPitch } = frameAnalysis(audio);
  const durationSeconds = input.length / audio.sampleRate;
  const speechFrameCount = speech.reduce((n, s) => n + (s ? 1 : 0), 0);

  return {
    version: 1,
    durationSeconds,
    speechSeconds: speechFrameCount * HOP_SECONDS,
    pitch: pitchStats(keptPitch, speechFrameCount),
    speakingRate:
      speechFrameCount > 0
        ? countSyllableNuclei(levels, speech, rawPitch) / (speechFrameCount * HOP_SECONDS)
        : null,
    loudness: {
      rmsDbfs: speechFrameCount > 0 ? speechRmsDbfs(levels, speech) : null,
      peakDbfs: toDb(peakOf(input) ** 2),
    },
    ...spectralAnalysis(spectrumSignal, keptPitch),
  };
}

/** The frame grid of a voice, as analyzeVoice measures it: one value per 10 ms frame (40 ms long). */
export interface PitchTrack {
  hopSeconds: number;
  /** Fundamental frequency in Hz, NaN where the frame is silent, unvoiced or an octave error. */
  pitchHz: Float64Array;
  /** The same before octave errors are taken out (a jump of 0.6 octave from the running median). */
  rawPitchHz: Float64Array;
  /** Mean-square level of each frame, in dBFS (floored at −120). */
  levelsDb: Float64Array;
  /** Whether each frame passed the energy gate (speech, not a pause). */
  speech: boolean[];
}

/** The pitch and level of every frame (analyzeVoice's own tracking), for measures of intonation. */
export function pitchTrack(audio: VoiceAudio): PitchTrack {
  const { levels, speech, rawPitch, keptPitch } = frameAnalysis(audio);
  return { hopSeconds: HOP_SECONDS, pitchHz: keptPitch, rawPitchHz: rawPitch, levelsDb: levels, speech };
}

/** Levels, the energy gate and pitch on the frame grid, shared by analyzeVoice and pitchTrack. */
function frameAnalysis(audio: VoiceAudio) {
  const { sampleRate } = audio;
  if (!(Number.isInteger(sampleRate) && sampleRate >= MIN_SAMPLE_RATE && sampleRate <= MAX_SAMPLE_RATE)) {
    throw new RangeError(`Voice analysis takes 8–48 kHz audio (a whole number of Hz), not ${sampleRate} Hz.`);
  }
  const input = toFloat(audio.samples);
  const durationSeconds = input.length / sampleRate;
  const frameCount =
    durationSeconds >= FRAME_SECONDS
      ? Math.floor((durationSeconds - FRAME_SECONDS) / HOP_SECONDS + 1e-9) + 1
      : 0;
  const levels = frameLevelsDb(input, sampleRate, frameCount);
  const speech = speechFrames(levels);
  const spectrumSignal = resample(input, sampleRate, SPECTRUM_RATE);
  const pitchSignal = resample(spectrumSignal, SPECTRUM_RATE, PITCH_RATE);
  const rawPitch = trackPitch(pitchSignal, speech);
  const keptPitch = rejectOctaveErrors(rawPitch);
  return { input, levels, speech, spectrumSignal, rawPitch, keptPitch };
}

/**
 * The factor by which `from`'s formants should be scaled to sound like `to`'s vocal tract (clamped to
 * 0.8–1.25, the range a formant shift keeps natural). It is the geometric mean of the F2 and F3 ratios:
 * those follow vocal-tract length, while F1 mostly follows how open the vowels are (and LPC confuses it
 * with the first harmonics of high voices). Without formants on both sides it falls back to the ratio of
 * spectral centroids, which also moves with spectral tilt; with neither it is 1.
 */
export function formantScale(from: VoiceProfile, to: VoiceProfile): number {
  const a = from.spectralEnvelope;
  const b = to.spectralEnvelope;
  let scale = 1;
  if (a.formantsHz && b.formantsHz) {
    scale = Math.sqrt((b.formantsHz[1] / a.formantsHz[1]) * (b.formantsHz[2] / a.formantsHz[2]));
  } else if (a.spectralCentroidHz && b.spectralCentroidHz) {
    scale = b.spectralCentroidHz / a.spectralCentroidHz;
  }
  return clamp(scale, 0.8, 1.25);
}

/**
 * A symmetric distance between two voices, 0 for identical profiles. One unit is half an octave
 * (6 semitones) of median pitch, or 6 dB RMS between the mel envelopes; the two add. A measurement
 * missing on one side only counts as one unit.
 */
export function profileDistance(a: VoiceProfile, b: VoiceProfile): number {
  let pitchTerm = 0;
  if (a.pitch.medianHz !== null && b.pitch.medianHz !== null) {
    pitchTerm = Math.abs(Math.log2(a.pitch.medianHz / b.pitch.medianHz)) / 0.5;
  } else if (a.pitch.medianHz !== null || b.pitch.medianHz !== null) {
    pitchTerm = 1;
  }
  const ea = a.spectralEnvelope.melBandsDb;
  const eb = b.spectralEnvelope.melBandsDb;
  let envelopeTerm = 0;
  if (ea && eb) {
    let sum = 0;
    for (let i = 0; i < ea.length; i++) sum += ((ea[i] ?? 0) - (eb[i] ?? 0)) ** 2;
    envelopeTerm = Math.sqrt(sum / Math.max(1, ea.length)) / 6;
  } else if (ea || eb) {
    envelopeTerm = 1;
  }
  return pitchTerm + envelopeTerm;
}

/** Fewer cepstral frames than this (about 1 s of voiced speech) on either side and timbreDistance abstains. */
const MIN_CEPSTRAL_FRAMES = 40;

/**
 * How far the voice of a reading is from a reference voice, for speaker verification (issue 26 item 7):
 * the arithmetic-harmonic sphericity of their cepstral covariances (Bimbot et al. 1995: log of
 * tr(A·B⁻¹)·tr(B·A⁻¹)/d², 0 for proportional covariances) plus the median pitch in half octaves, as in
 * profileDistance. Unlike profileDistance's long-term spectrum it hardly moves with the microphone or the
 * words read. Null when either profile lacks cepstral statistics (measured before them) or has too few
 * frames: then compare with profileDistance.
 */
export function timbreDistance(reading: VoiceProfile, reference: VoiceProfile): number | null {
  const a = reading.cepstrum;
  const b = reference.cepstrum;
  if (!a || !b || a.frames < MIN_CEPSTRAL_FRAMES || b.frames < MIN_CEPSTRAL_FRAMES) return null;
  const pa = reading.pitch.medianHz;
  const pb = reference.pitch.medianHz;
  if (pa === null || pb === null) return null;
  const d = CEPSTRAL_COEFFICIENTS;
  const inverseA = invertSymmetric(a.covariance, d);
  const inverseB = invertSymmetric(b.covariance, d);
  if (!inverseA || !inverseB) return null;
  const sphericity = Math.log(
    (traceOfProduct(a.covariance, inverseB, d) * traceOfProduct(b.covariance, inverseA, d)) / (d * d),
  );
  return sphericity + Math.abs(Math.log2(pa / pb)) / 0.5;
}

/** tr(A·B) of two d×d matrices, row after row. */
function traceOfProduct(a: readonly number[], b: readonly number[], d: number): number {
  let trace = 0;
  for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) trace += (a[i * d + j] ?? 0) * (b[j * d + i] ?? 0);
  return trace;
}

/**
 * The inverse of a covariance matrix (Gauss–Jordan with partial pivoting), after a ridge of 10⁻⁶ of its
 * mean variance on the diagonal; null when it is singular all the same.
 */
function invertSymmetric(matrix: readonly number[], d: number): number[] | null {
  const ridge = (1e-6 * sum(Array.from({ length: d }, (_, i) => matrix[i * d + i] ?? 0))) / d;
  const a = Array.from({ length: d }, (_, i) =>
    Array.from({ length: 2 * d }, (_, j) =>
      j < d ? (matrix[i * d + j] ?? 0) + (i === j ? ridge : 0) : j - d === i ? 1 : 0,
    ),
  );
  for (let c = 0; c < d; c++) {
    let pivot = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(a[r]?.[c] ?? 0) > Math.abs(a[pivot]?.[c] ?? 0)) pivot = r;
    const top = a[pivot] as number[];
    a[pivot] = a[c] as number[];
    a[c] = top;
    const diagonal = top[c] ?? 0;
    if (Math.abs(diagonal) < 1e-300) return null;
    for (let k = 0; k < 2 * d; k++) top[k] = (top[k] ?? 0) / diagonal;
    for (let r = 0; r < d; r++) {
      if (r === c) continue;
      const row = a[r] as number[];
      const factor = row[c] ?? 0;
      if (factor !== 0) for (let k = 0; k < 2 * d; k++) row[k] = (row[k] ?? 0) - factor * (top[k] ?? 0);
    }
  }
  return a.flatMap((row) => row.slice(d));
}

/**
 * One profile from several samples of a voice, weighted by their speech seconds unless `weights` are
 * given. Totals (seconds, voiced frames) add, and with the default weights the speaking rate is exact.
 * Pitch percentiles and formants are means in log frequency weighted by voiced time (weight × voiced
 * share): what the pooled frames would give when the samples share one distribution, as samples of one
 * speaker do. The envelope is the weighted mean of the band levels, renormalised.
 */
export function mergeProfiles(profiles: VoiceProfile[], weights?: number[]): VoiceProfile {
  if (profiles.length === 0) throw new RangeError('mergeProfiles needs at least one profile.');
  if (weights && weights.length !== profiles.length) {
    throw new RangeError('mergeProfiles needs one weight per profile.');
  }
  const w = profiles.map((p, i) => Math.max(0, weights?.[i] ?? p.speechSeconds));
  const speechSeconds = sum(profiles.map((p) => p.speechSeconds));
  const voicedFrames = sum(profiles.map((p) => p.pitch.voicedFrames));
  // Voiced time in each sample, scaled by its weight: what the pitch and the envelope rest on.
  const voicedWeights = profiles.map((p, i) => (w[i] ?? 0) * p.pitch.voicedShare);
  const totalWeight = sum(w);

  const withPitch = profiles.flatMap((p, i) =>
    p.pitch.medianHz !== null ? [{ pitch: p.pitch, weight: voicedWeights[i] ?? 0 }] : [],
  );
  const voicedShare = totalWeight > 0 ? sum(voicedWeights) / totalWeight : 0;
  let pitch: VoicePitch;
  if (voicedFrames >= MIN_VOICED_FRAMES && withPitch.length > 0 && sum(withPitch.map((p) => p.weight)) > 0) {
    const logMean = (pick: (p: VoicePitch & { unavailable: null }) => number) =>
      weightedLogMean(withPitch.map(({ pitch: p, weight }) => ({ value: pick(p), weight })));
    pitch = {
      medianHz: logMean((p) => p.medianHz),
      p10Hz: logMean((p) => p.p10Hz),
      p90Hz: logMean((p) => p.p90Hz),
      voicedShare,
      voicedFrames,
      unavailable: null,
    };
  } else {
    pitch = {
      medianHz: null,
      p10Hz: null,
      p90Hz: null,
      voicedShare,
      voicedFrames,
      unavailable: speechSeconds > 0 ? 'no-voiced-speech' : 'no-speech',
    };
  }

  const rated = profiles.flatMap((p, i) =>
    p.speakingRate !== null ? [{ value: p.speakingRate, weight: w[i] ?? 0 }] : [],
  );
  const loud = profiles.flatMap((p, i) =>
    p.loudness.rmsDbfs !== null ? [{ value: 10 ** (p.loudness.rmsDbfs / 10), weight: w[i] ?? 0 }] : [],
  );
  const meanPower = weightedMean(loud);

  const enveloped = profiles.flatMap((p, i) => {
    const bands = p.spectralEnvelope.melBandsDb;
    return bands
      ? [{ bands, centroid: p.spectralEnvelope.spectralCentroidHz ?? 0, weight: voicedWeights[i] ?? 0 }]
      : [];
  });
  let melBandsDb: number[] | null = null;
  let spectralCentroidHz: number | null = null;
  if (enveloped.length > 0 && sum(enveloped.map((e) => e.weight)) > 0) {
    melBandsDb = Array.from({ length: MEL_BANDS }, (_, band) =>
      weightedMean(enveloped.map((e) => ({ value: e.bands[band] ?? 0, weight: e.weight }))),
    );
    const mean = sum(melBandsDb) / melBandsDb.length;
    melBandsDb = melBandsDb.map((v) => v - mean);
    spectralCentroidHz = weightedMean(enveloped.map((e) => ({ value: e.centroid, weight: e.weight })));
  }
  const withFormants = profiles.flatMap((p, i) => {
    const f = p.spectralEnvelope.formantsHz;
    return f ? [{ f, weight: voicedWeights[i] ?? 0 }] : [];
  });
  const formantsHz =
    withFormants.length > 0 && sum(withFormants.map((e) => e.weight)) > 0
      ? ([0, 1, 2].map((k) =>
          weightedLogMean(withFormants.map((e) => ({ value: e.f[k] ?? 0, weight: e.weight }))),
        ) as [number, number, number])
      : null;

  const cepstrum = mergeCepstra(profiles, w);
  return {
    version: 1,
    durationSeconds: sum(profiles.map((p) => p.durationSeconds)),
    speechSeconds,
    pitch,
    speakingRate: rated.length > 0 && sum(rated.map((r) => r.weight)) > 0 ? weightedMean(rated) : null,
    loudness: {
      rmsDbfs: loud.length > 0 && sum(loud.map((l) => l.weight)) > 0 ? toDb(meanPower) : null,
      peakDbfs: Math.max(...profiles.map((p) => p.loudness.peakDbfs)),
    },
    spectralEnvelope: { melBandsDb, spectralCentroidHz, formantsHz },
    ...(cepstrum ? { cepstrum } : {}),
  };
}

/**
 * The cepstral statistics of the frames of every profile that has them, pooled (each profile's frames
 * count as many times as its weight is to its speech seconds: once with the default weights).
 */
function mergeCepstra(
  profiles: readonly VoiceProfile[],
  weights: readonly number[],
): CepstralStatistics | undefined {
  const parts = profiles.flatMap((p, i) => {
    if (!p.cepstrum || p.cepstrum.frames === 0) return [];
    const scale = p.speechSeconds > 0 ? (weights[i] ?? 0) / p.speechSeconds : 1;
    return scale > 0 ? [{ stats: p.cepstrum, count: p.cepstrum.frames * scale }] : [];
  });
  const total = sum(parts.map((p) => p.count));
  if (parts.length === 0 || total <= 0) return undefined;
  const d = CEPSTRAL_COEFFICIENTS;
  const mean = Array.from(
    { length: d },
    (_, i) => sum(parts.map((p) => (p.stats.mean[i] ?? 0) * p.count)) / total,
  );
  // Pooled covariance: each part's second moments about the pooled mean.
  const covariance = Array.from({ length: d * d }, (_, index) => {
    const i = Math.floor(index / d);
    const j = index % d;
    return (
      sum(
        parts.map(
          (p) =>
            ((p.stats.covariance[index] ?? 0) +
              ((p.stats.mean[i] ?? 0) - (mean[i] ?? 0)) * ((p.stats.mean[j] ?? 0) - (mean[j] ?? 0))) *
            p.count,
        ),
      ) / total
    );
  });
  return { frames: Math.round(sum(parts.map((p) => p.stats.frames))), mean, covariance };
}

// ---- framing and levels ----

function toFloat(samples: Int16Array | Float32Array): Float32Array {
  if (samples instanceof Float32Array) return samples;
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] ?? 0) / 32768;
  return out;
}

/** First sample of frame `frame` at `rate`. */
function frameStart(frame: number, rate: number): number {
  return Math.round(frame * HOP_SECONDS * rate);
}

/** Mean-square level of each 40 ms frame, in dBFS (floored at −120). */
function frameLevelsDb(x: Float32Array, rate: number, frameCount: number): Float64Array {
  const cumulative = new Float64Array(x.length + 1);
  for (let i = 0; i < x.length; i++) cumulative[i + 1] = (cumulative[i] ?? 0) + (x[i] ?? 0) ** 2;
  const length = Math.round(FRAME_SECONDS * rate);
  const levels = new Float64Array(frameCount);
  for (let f = 0; f < frameCount; f++) {
    const start = frameStart(f, rate);
    const end = Math.min(x.length, start + length);
    levels[f] = toDb(((cumulative[end] ?? 0) - (cumulative[start] ?? 0)) / Math.max(1, end - start));
  }
  return levels;
}

/**
 * The energy gate: a frame is speech when it is above −60 dBFS, 6 dB above the noise floor (10th
 * percentile) and within 40 dB of the loud frames (95th percentile). The gate never rises above 10 dB
 * under the loud frames, so a sample with no pauses (no floor to measure) is speech throughout.
 */
function speechFrames(levels: Float64Array): boolean[] {
  if (levels.length === 0) return [];
  const sorted = Float64Array.from(levels).sort();
  const floor = percentile(sorted, 0.1);
  const loud = percentile(sorted, 0.95);
  const gate = Math.max(SILENCE_DBFS, Math.min(Math.max(floor + 6, loud - 40), loud - 10));
  return Array.from(levels, (level) => level >= gate);
}

function speechRmsDbfs(levels: Float64Array, speech: boolean[]): number {
  let power = 0;
  let count = 0;
  for (let f = 0; f < levels.length; f++) {
    if (!speech[f]) continue;
    power += 10 ** ((levels[f] ?? DB_FLOOR) / 10);
    count++;
  }
  return toDb(power / count);
}

// ---- pitch ----

/**
 * YIN (`yin.ts`) on each speech frame; NaN where it found no pitch in 50–500 Hz.
 */
function trackPitch(signal: Float32Array, speech: boolean[]): Float64Array {
  const pitch = new Float64Array(speech.length).fill(Number.NaN);
  const frame = new Float32Array(PITCH_BUFFER);
  for (let f = 0; f < speech.length; f++) {
    if (!speech[f]) continue;
    const start = frameStart(f, PITCH_RATE);
    if (start + PITCH_BUFFER > signal.length) break;
    for (let i = 0; i < PITCH_BUFFER; i++) frame[i] = signal[start + i] ?? 0;
    const hz = yinPitch(frame, { sampleRate: PITCH_RATE, threshold: YIN_THRESHOLD });
    if (hz !== null && hz >= MIN_PITCH_HZ && hz <= MAX_PITCH_HZ) pitch[f] = hz;
  }
  return pitch;
}

/** Drops frames further than {@link OCTAVE_ERROR_TOLERANCE} from the median of their neighbours. */
function rejectOctaveErrors(pitch: Float64Array): Float64Array {
  const frames: number[] = [];
  for (let f = 0; f < pitch.length; f++) if (!Number.isNaN(pitch[f])) frames.push(f);
  const logs = frames.map((f) => Math.log2(pitch[f] ?? 1));
  const kept = new Float64Array(pitch.length).fill(Number.NaN);
  // The window (sorted) holds logs[i − half … i + half], clipped to the track.
  const window = logs.slice(0, RUNNING_MEDIAN_HALF_WIDTH).sort((x, y) => x - y);
  for (let i = 0; i < frames.length; i++) {
    const entering = logs[i + RUNNING_MEDIAN_HALF_WIDTH];
    if (entering !== undefined) window.splice(sortedIndex(window, entering), 0, entering);
    const leaving = logs[i - RUNNING_MEDIAN_HALF_WIDTH - 1];
    if (leaving !== undefined) window.splice(sortedIndex(window, leaving), 1);
    const median = percentile(window, 0.5);
    const frame = frames[i] ?? 0;
    if (Math.abs((logs[i] ?? 0) - median) <= OCTAVE_ERROR_TOLERANCE) kept[frame] = pitch[frame] ?? Number.NaN;
  }
  return kept;
}

/** First index of ascending `values` whose value is not below `value`. */
function sortedIndex(values: number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((values[mid] ?? 0) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function pitchStats(pitch: Float64Array, speechFrameCount: number): VoicePitch {
  const values = Array.from(pitch)
    .filter((hz) => !Number.isNaN(hz))
    .sort((a, b) => a - b);
  const counts = {
    voicedFrames: values.length,
    voicedShare: speechFrameCount > 0 ? values.length / speechFrameCount : 0,
  };
  if (values.length < MIN_VOICED_FRAMES) {
    return {
      medianHz: null,
      p10Hz: null,
      p90Hz: null,
      ...counts,
      unavailable: speechFrameCount > 0 ? 'no-voiced-speech' : 'no-speech',
    };
  }
  return {
    medianHz: percentile(values, 0.5),
    p10Hz: percentile(values, 0.1),
    p90Hz: percentile(values, 0.9),
    ...counts,
    unavailable: null,
  };
}

/**
 * Syllable nuclei after de Jong & Wempe (2009): local maxima of the level envelope in voiced speech
 * frames, each standing {@link NUCLEUS_DIP_DB} above the lowest level since the previous nucleus (else
 * the two are one nucleus, kept at the higher peak).
 */
function countSyllableNuclei(levels: Float64Array, speech: boolean[], pitch: Float64Array): number {
  let count = 0;
  let lastPeak = Number.NaN;
  let dip = Number.POSITIVE_INFINITY;
  for (let f = 0; f < levels.length; f++) {
    const level = levels[f] ?? DB_FLOOR;
    dip = Math.min(dip, level);
    const isPeak =
      speech[f] &&
      !Number.isNaN(pitch[f]) &&
      level > (levels[f - 1] ?? DB_FLOOR) &&
      level >= (levels[f + 1] ?? DB_FLOOR);
    if (!isPeak) continue;
    if (Number.isNaN(lastPeak) || (lastPeak - dip >= NUCLEUS_DIP_DB && level - dip >= NUCLEUS_DIP_DB)) {
      count++;
      lastPeak = level;
      dip = level;
    } else if (level > lastPeak) {
      lastPeak = level;
      dip = level;
    }
  }
  return count;
}

// ---- spectrum and formants ----

function spectralAnalysis(
  signal: Float32Array,
  voiced: Float64Array,
): { spectralEnvelope: SpectralEnvelope; cepstrum?: CepstralStatistics } {
  const frameLength = Math.round(FRAME_SECONDS * SPECTRUM_RATE);
  const hann = window(frameLength, 0.5);
  const hamming = window(LPC_WINDOW, 0.54);
  const power = new Float64Array(FFT_SIZE / 2 + 1);
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  const lpcFrame = new Float64Array(LPC_WINDOW);
  const formants: [number[], number[], number[]] = [[], [], []];
  const cepstra = new CepstrumAccumulator();
  const frameBins = new Float64Array(FFT_SIZE / 2 + 1);
  let frames = 0;
  let seen = 0;
  for (let f = 0; f < voiced.length; f++) {
    if (Number.isNaN(voiced[f])) continue;
    const start = frameStart(f, SPECTRUM_RATE);
    if (start + frameLength > signal.length) break;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < frameLength; i++) re[i] = (signal[start + i] ?? 0) * (hann[i] ?? 0);
    fft(re, im);
    for (let k = 0; k < frameBins.length; k++) frameBins[k] = (re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2;
    // The cepstra of every voiced frame: a few seconds' reading gives few enough as it is.
    cepstra.add(frameBins);
    // The envelope and formants from every other voiced frame: 40 ms windows every 20 ms still cover all
    // the voiced time, at half the cost.
    if (seen++ % 2 === 1) continue;
    for (let k = 0; k < power.length; k++) power[k] = (power[k] ?? 0) + (frameBins[k] ?? 0);
    frames++;

    const lpcStart = start + Math.floor((frameLength - LPC_WINDOW) / 2);
    for (let i = 0; i < LPC_WINDOW; i++) {
      const emphasised = (signal[lpcStart + i] ?? 0) - 0.97 * (signal[lpcStart + i - 1] ?? 0);
      lpcFrame[i] = emphasised * (hamming[i] ?? 0);
    }
    const found = lpcFormants(lpcFrame);
    if (found.length >= 3) for (let k = 0; k < 3; k++) formants[k]?.push(found[k] ?? 0);
  }
  if (frames === 0)
    return { spectralEnvelope: { melBandsDb: null, spectralCentroidHz: null, formantsHz: null } };

  const binHz = SPECTRUM_RATE / FFT_SIZE;
  const bands = melFilterbank().map((weights) =>
    toDb(weights.reduce((s, wt, k) => s + wt * (power[k] ?? 0), 0)),
  );
  const meanDb = sum(bands) / bands.length;
  let weighted = 0;
  let total = 0;
  for (let k = 0; k < power.length; k++) {
    const hz = k * binHz;
    if (hz < ENVELOPE_LOW_HZ || hz > ENVELOPE_HIGH_HZ) continue;
    weighted += hz * (power[k] ?? 0);
    total += power[k] ?? 0;
  }
  const formantFrames = formants[0].length;
  return {
    spectralEnvelope: {
      melBandsDb: bands.map((b) => b - meanDb),
      spectralCentroidHz: total > 0 ? weighted / total : null,
      formantsHz:
        formantFrames >= MIN_VOICED_FRAMES
          ? (formants.map((values) => trimmedLogMean(values)) as [number, number, number])
          : null,
    },
    cepstrum: cepstra.statistics(),
  };
}

/** Mel-cepstra are c1 up to this (c0, the level, is left out). */
const CEPSTRAL_COEFFICIENTS = 12;

/** The running sums of the frames' mel-cepstra, for CepstralStatistics. */
class CepstrumAccumulator {
  private frames = 0;
  private readonly sum = new Float64Array(CEPSTRAL_COEFFICIENTS);
  private readonly products = new Float64Array(CEPSTRAL_COEFFICIENTS * CEPSTRAL_COEFFICIENTS);
  private readonly bandsDb = new Float64Array(MEL_BANDS);
  private readonly cepstrum = new Float64Array(CEPSTRAL_COEFFICIENTS);

  /** One frame's power spectrum (FFT_SIZE/2 + 1 bins). */
  add(power: Float64Array): void {
    const filters = melFilterbank();
    for (let band = 0; band < MEL_BANDS; band++) {
      const weights = filters[band] as Float64Array;
      let energy = 0;
      for (let k = 0; k < weights.length; k++) energy += (weights[k] ?? 0) * (power[k] ?? 0);
      this.bandsDb[band] = toDb(energy);
    }
    const cosines = dctTable();
    for (let c = 0; c < CEPSTRAL_COEFFICIENTS; c++) {
      let value = 0;
      for (let band = 0; band < MEL_BANDS; band++)
        value += (this.bandsDb[band] ?? 0) * (cosines[c * MEL_BANDS + band] ?? 0);
      this.cepstrum[c] = value;
    }
    this.frames++;
    for (let i = 0; i < CEPSTRAL_COEFFICIENTS; i++) {
      const ci = this.cepstrum[i] ?? 0;
      this.sum[i] = (this.sum[i] ?? 0) + ci;
      for (let j = 0; j < CEPSTRAL_COEFFICIENTS; j++)
        this.products[i * CEPSTRAL_COEFFICIENTS + j] =
          (this.products[i * CEPSTRAL_COEFFICIENTS + j] ?? 0) + ci * (this.cepstrum[j] ?? 0);
    }
  }

  statistics(): CepstralStatistics | undefined {
    const n = this.frames;
    if (n === 0) return undefined;
    const mean = Array.from(this.sum, (s) => s / n);
    const covariance = Array.from(
      this.products,
      (p, index) =>
        p / n -
        (mean[Math.floor(index / CEPSTRAL_COEFFICIENTS)] ?? 0) * (mean[index % CEPSTRAL_COEFFICIENTS] ?? 0),
    );
    return { frames: n, mean, covariance };
  }
}

let dctCosines: Float64Array | undefined;

/** DCT-II (orthonormal) rows 1…CEPSTRAL_COEFFICIENTS over the mel bands. */
function dctTable(): Float64Array {
  dctCosines ??= Float64Array.from({ length: CEPSTRAL_COEFFICIENTS * MEL_BANDS }, (_, index) => {
    const c = Math.floor(index / MEL_BANDS) + 1;
    const band = index % MEL_BANDS;
    return Math.sqrt(2 / MEL_BANDS) * Math.cos((Math.PI * c * (band + 0.5)) / MEL_BANDS);
  });
  return dctCosines;
}

/** Formant frequencies (ascending, Hz) of one windowed frame: LPC poles with a narrow bandwidth. */
function lpcFormants(frame: Float64Array): number[] {
  const r = new Float64Array(LPC_ORDER + 1);
  for (let lag = 0; lag <= LPC_ORDER; lag++) {
    let acc = 0;
    for (let i = lag; i < frame.length; i++) acc += (frame[i] ?? 0) * (frame[i - lag] ?? 0);
    r[lag] = acc;
  }
  // A touch of white noise (−40 dB) keeps the recursion stable on near-pure tones.
  r[0] = (r[0] ?? 0) * 1.0001;
  const a = levinson(r);
  if (!a) return [];
  const { re, im } = polynomialRoots(a);
  const found: number[] = [];
  for (let k = 0; k < re.length; k++) {
    const x = re[k] ?? 0;
    const y = im[k] ?? 0;
    if (y <= 0) continue;
    const hz = (Math.atan2(y, x) * SPECTRUM_RATE) / (2 * Math.PI);
    const bandwidth = (-Math.log(Math.hypot(x, y)) * SPECTRUM_RATE) / Math.PI;
    if (hz > MIN_FORMANT_HZ && hz < MAX_FORMANT_HZ && bandwidth < MAX_FORMANT_BANDWIDTH_HZ) found.push(hz);
  }
  return found.sort((x, y) => x - y);
}

/** Levinson–Durbin: autocorrelation → prediction polynomial [1, a1 … ap]; null when it is unstable. */
function levinson(r: Float64Array): Float64Array | null {
  const order = r.length - 1;
  const a = new Float64Array(order + 1);
  const previous = new Float64Array(order + 1);
  a[0] = 1;
  let error = r[0] ?? 0;
  if (error <= 0) return null;
  for (let i = 1; i <= order; i++) {
    let acc = r[i] ?? 0;
    for (let j = 1; j < i; j++) acc += (a[j] ?? 0) * (r[i - j] ?? 0);
    const k = -acc / error;
    previous.set(a);
    for (let j = 1; j < i; j++) a[j] = (previous[j] ?? 0) + k * (previous[i - j] ?? 0);
    a[i] = k;
    error *= 1 - k * k;
    if (error <= 0) return null;
  }
  return a;
}

/** Roots of the monic polynomial c[0]·zⁿ + … + c[n] (c[0] = 1), by Durand–Kerner iteration. */
function polynomialRoots(c: Float64Array): { re: Float64Array; im: Float64Array } {
  const n = c.length - 1;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  // Starting points: powers of 0.4 + 0.9i, the usual choice (not real, not roots of unity).
  let pr = 1;
  let pi = 0;
  for (let k = 0; k < n; k++) {
    re[k] = pr;
    im[k] = pi;
    const next = pr * 0.4 - pi * 0.9;
    pi = pr * 0.9 + pi * 0.4;
    pr = next;
  }
  for (let iteration = 0; iteration < 200; iteration++) {
    let change = 0;
    for (let k = 0; k < n; k++) {
      const zr = re[k] ?? 0;
      const zi = im[k] ?? 0;
      let vr = 1;
      let vi = 0;
      for (let j = 1; j <= n; j++) {
        const next = vr * zr - vi * zi + (c[j] ?? 0);
        vi = vr * zi + vi * zr;
        vr = next;
      }
      let dr = 1;
      let di = 0;
      for (let j = 0; j < n; j++) {
        if (j === k) continue;
        const er = zr - (re[j] ?? 0);
        const ei = zi - (im[j] ?? 0);
        const next = dr * er - di * ei;
        di = dr * ei + di * er;
        dr = next;
      }
      const d2 = dr * dr + di * di || 1e-300;
      const qr = (vr * dr + vi * di) / d2;
      const qi = (vi * dr - vr * di) / d2;
      re[k] = zr - qr;
      im[k] = zi - qi;
      change = Math.max(change, Math.abs(qr) + Math.abs(qi));
    }
    if (change < 1e-10) break;
  }
  return { re, im };
}

let melWeights: Float64Array[] | undefined;

/** 24 triangular bands, equally spaced in mel between 60 Hz and 3.4 kHz, over the FFT bins. */
function melFilterbank(): Float64Array[] {
  if (melWeights) return melWeights;
  const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
  const hzOf = (m: number) => 700 * (10 ** (m / 2595) - 1);
  const low = mel(ENVELOPE_LOW_HZ);
  const step = (mel(ENVELOPE_HIGH_HZ) - low) / (MEL_BANDS + 1);
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) => hzOf(low + i * step));
  const binHz = SPECTRUM_RATE / FFT_SIZE;
  melWeights = Array.from({ length: MEL_BANDS }, (_, band) => {
    const [lo, mid, hi] = [edges[band] ?? 0, edges[band + 1] ?? 0, edges[band + 2] ?? 0];
    return Float64Array.from({ length: FFT_SIZE / 2 + 1 }, (_, k) => {
      const hz = k * binHz;
      if (hz <= lo || hz >= hi) return 0;
      return hz <= mid ? (hz - lo) / (mid - lo) : (hi - hz) / (hi - mid);
    });
  });
  return melWeights;
}

/** In-place radix-2 FFT; the length is a power of two. */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const r = re[i] ?? 0;
      re[i] = re[j] ?? 0;
      re[j] = r;
      const m = im[i] ?? 0;
      im[i] = im[j] ?? 0;
      im[j] = m;
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1;
    const angle = (-2 * Math.PI) / size;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let start = 0; start < n; start += size) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < half; k++) {
        const a = start + k;
        const b = a + half;
        const br = re[b] ?? 0;
        const bi = im[b] ?? 0;
        const tr = br * cr - bi * ci;
        const ti = br * ci + bi * cr;
        const ar = re[a] ?? 0;
        const ai = im[a] ?? 0;
        re[b] = ar - tr;
        im[b] = ai - ti;
        re[a] = ar + tr;
        im[a] = ai + ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

/** Hann (α = 0.5) or Hamming (α = 0.54) window. */
function window(length: number, alpha: number): Float64Array {
  return Float64Array.from(
    { length },
    (_, i) => alpha - (1 - alpha) * Math.cos((2 * Math.PI * i) / Math.max(1, length - 1)),
  );
}

// ---- resampling ----

/** Zero crossings of the windowed-sinc kernel on each side, and table steps per crossing. */
const SINC_ZERO_CROSSINGS = 8;
const SINC_TABLE_STEPS = 256;
let sincTable: Float64Array | undefined;

/** Blackman-windowed sinc, tabulated over 0 … {@link SINC_ZERO_CROSSINGS}. */
function sincKernel(): Float64Array {
  sincTable ??= Float64Array.from({ length: SINC_ZERO_CROSSINGS * SINC_TABLE_STEPS + 2 }, (_, i) => {
    const u = i / SINC_TABLE_STEPS;
    if (u >= SINC_ZERO_CROSSINGS) return 0;
    const sinc = u === 0 ? 1 : Math.sin(Math.PI * u) / (Math.PI * u);
    const w = (Math.PI * (u + SINC_ZERO_CROSSINGS)) / SINC_ZERO_CROSSINGS;
    return sinc * (0.42 - 0.5 * Math.cos(w) + 0.08 * Math.cos(2 * w));
  });
  return sincTable;
}

/** Kernel value at `offset` input samples from the centre, for a cutoff (fraction of input Nyquist). */
function kernelAt(table: Float64Array, offset: number, cutoff: number): number {
  const position = Math.abs(offset) * cutoff * SINC_TABLE_STEPS;
  const i = Math.floor(position);
  const low = table[i] ?? 0;
  return (low + (position - i) * ((table[i + 1] ?? 0) - low)) * cutoff;
}

/**
 * Band-limited resampling (windowed sinc, cutoff at 90% of the lower Nyquist frequency). Output sample n
 * sits at input position n·from/to; with `to/gcd` phases or fewer than 1024 (every pair of common rates)
 * the kernel is precomputed per phase.
 */
function resample(x: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return x;
  const table = sincKernel();
  const cutoff = 0.9 * Math.min(1, to / from);
  const reach = Math.ceil(SINC_ZERO_CROSSINGS / cutoff);
  const taps = 2 * reach;
  const divisor = gcd(from, to);
  const phases = to / divisor;
  const step = from / divisor;
  const out = new Float32Array(Math.floor((x.length * to) / from));
  if (phases > 1024) {
    for (let n = 0; n < out.length; n++) {
      const t = (n * from) / to;
      const base = Math.floor(t);
      let acc = 0;
      for (let k = Math.max(0, base - reach + 1); k <= Math.min(x.length - 1, base + reach); k++) {
        acc += (x[k] ?? 0) * kernelAt(table, t - k, cutoff);
      }
      out[n] = acc;
    }
    return out;
  }
  // bank[phase·taps + j] weighs input sample base − reach + 1 + j for output position base + phase/phases.
  const bank = new Float64Array(phases * taps);
  for (let phase = 0; phase < phases; phase++) {
    for (let j = 0; j < taps; j++)
      bank[phase * taps + j] = kernelAt(table, phase / phases + reach - 1 - j, cutoff);
  }
  for (let n = 0; n < out.length; n++) {
    const position = n * step;
    const base = Math.floor(position / phases);
    const offset = (position - base * phases) * taps;
    const first = base - reach + 1;
    let acc = 0;
    if (first >= 0 && first + taps <= x.length) {
      for (let j = 0; j < taps; j++) acc += (x[first + j] ?? 0) * (bank[offset + j] ?? 0);
    } else {
      for (let j = 0; j < taps; j++) {
        const k = first + j;
        if (k >= 0 && k < x.length) acc += (x[k] ?? 0) * (bank[offset + j] ?? 0);
      }
    }
    out[n] = acc;
  }
  return out;
}

function gcd(a: number, b: number): number {
  let x = Math.round(a);
  let y = Math.round(b);
  while (y) [x, y] = [y, x % y];
  return x;
}

// ---- small numeric helpers ----

function toDb(power: number): number {
  return power > 0 ? Math.max(DB_FLOOR, 10 * Math.log10(power)) : DB_FLOOR;
}

function peakOf(x: Float32Array): number {
  let peak = 0;
  for (let i = 0; i < x.length; i++) peak = Math.max(peak, Math.abs(x[i] ?? 0));
  return peak;
}

/** Linear-interpolated percentile of ascending values (q in 0–1). */
function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = q * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.min(sorted.length - 1, low + 1);
  const a = sorted[low] ?? 0;
  return a + (position - low) * ((sorted[high] ?? 0) - a);
}

function sum(values: number[]): number {
  return values.reduce((s, v) => s + v, 0);
}

function weightedMean(items: { value: number; weight: number }[]): number {
  const total = sum(items.map((i) => i.weight));
  return total > 0 ? sum(items.map((i) => i.value * i.weight)) / total : Number.NaN;
}

/** Geometric mean of the values between their 10th and 90th percentiles (mislabelled formants drop out). */
function trimmedLogMean(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const trim = Math.floor(sorted.length * 0.1);
  const middle = sorted.slice(trim, sorted.length - trim);
  return 2 ** (sum(middle.map(Math.log2)) / middle.length);
}

function weightedLogMean(items: { value: number; weight: number }[]): number {
  return 2 ** weightedMean(items.map((i) => ({ value: Math.log2(i.value), weight: i.weight })));
}

/** A profile like `base` with its pitch and formants scaled: what the designed voice should sound like. */
export function scaledProfile(base: VoiceProfile, pitch: number, formant: number, pace = 1): VoiceProfile {
  const env = base.spectralEnvelope;
  // The base's cepstral statistics do not describe the shifted voice: left out (timbreDistance abstains).
  const { cepstrum: _cepstrum, ...kept } = base;
  return {
    ...kept,
    pitch:
      base.pitch.medianHz === null
        ? base.pitch
        : {
            ...base.pitch,
            medianHz: base.pitch.medianHz * pitch,
            p10Hz: base.pitch.p10Hz * pitch,
            p90Hz: base.pitch.p90Hz * pitch,
          },
    speakingRate: base.speakingRate === null ? null : base.speakingRate * pace,
    spectralEnvelope: {
      ...env,
      spectralCentroidHz: env.spectralCentroidHz === null ? null : env.spectralCentroidHz * formant,
      formantsHz: env.formantsHz
        ? [env.formantsHz[0] * formant, env.formantsHz[1] * formant, env.formantsHz[2] * formant]
        : null,
    },
  };
}
