import { fft, pitchTrack, type VoiceAudio } from './voice-profile';

/*
 * Measures of delivery, to tell what a voice setting did to speech (issue 18 item 3): how much the pitch
 * moves, how much the level moves, how loud it is and where its energy sits in the spectrum. Pitch and
 * levels come from the voice profile's own tracking (pitchTrack: YIN on 10 ms frames); the spectrum from
 * 1024-point Hann frames of the speech at its own rate.
 */

/** What a stretch of speech sounds like, in figures that voice settings move. */
export interface ProsodyMeasures {
  durationSeconds: number;
  /** Time above the energy gate, in seconds. */
  speechSeconds: number;
  pitch: {
    voicedFrames: number;
    /** Null below 20 voiced frames, as everything else in `pitch`. */
    medianHz: number | null;
    /** Standard deviation of the pitch around its median, in semitones: how much the intonation moves. */
    sdSemitones: number | null;
    /** 5th to 95th percentile of the pitch, in semitones: the intonation's range. */
    rangeSemitones: number | null;
  };
  level: {
    /** RMS over the speech frames, in dBFS (a full-scale sine is −3 dBFS). */
    rmsDbfs: number | null;
    /** Standard deviation of the speech frames' levels, in dB: how much the energy moves. */
    sdDb: number | null;
    peakDbfs: number;
  };
  spectrum: {
    /** Power-weighted mean frequency of the speech frames' spectrum (60 Hz to the top), in Hz. */
    centroidHz: number | null;
    /** Power in the presence band (2–5 kHz) against the whole spectrum's, in dB (more is brighter). */
    presenceDb: number | null;
  };
}

const MIN_VOICED_FRAMES = 20;
/** A frame further than this from the median pitch (in octaves: 9.6 semitones) is an octave error. */
const OCTAVE_ERROR_OCTAVES = 0.8;
const SPECTRUM_SIZE = 1024;
const PRESENCE_LOW_HZ = 2000;
const PRESENCE_HIGH_HZ = 5000;

/** Measures a mono recording (8–48 kHz); see {@link ProsodyMeasures}. */
export function measureProsody(audio: VoiceAudio): ProsodyMeasures {
  const track = pitchTrack(audio);
  const samples = audio.samples;
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  const speechLevels: number[] = [];
  const raw: number[] = [];
  for (let f = 0; f < track.speech.length; f++) {
    if (!track.speech[f]) continue;
    speechLevels.push(track.levelsDb[f] ?? -120);
    const hz = track.rawPitchHz[f] ?? Number.NaN;
    if (!Number.isNaN(hz)) raw.push(hz);
  }
  // Octave errors out against the median of the whole, not of the neighbours (as the profile does): a
  // widened intonation moves further than 0.6 octave from its neighbours' median, and must count.
  raw.sort((a, b) => a - b);
  const center = raw.length > 0 ? quantile(raw, 0.5) : 0;
  const voiced = raw.filter((hz) => Math.abs(Math.log2(hz / center)) <= OCTAVE_ERROR_OCTAVES);
  let pitch: ProsodyMeasures['pitch'] = {
    voicedFrames: voiced.length,
    medianHz: null,
    sdSemitones: null,
    rangeSemitones: null,
  };
  if (voiced.length >= MIN_VOICED_FRAMES) {
    const median = quantile(voiced, 0.5);
    const semitones = voiced.map((hz) => 12 * Math.log2(hz / median));
    pitch = {
      voicedFrames: voiced.length,
      medianHz: median,
      sdSemitones: standardDeviation(semitones),
      rangeSemitones: 12 * Math.log2(quantile(voiced, 0.95) / quantile(voiced, 0.05)),
    };
  }
  let peak = 0;
  for (let i = 0; i < samples.length; i++) peak = Math.max(peak, Math.abs((samples[i] ?? 0) * scale));
  const power = speechLevels.reduce((s, db) => s + 10 ** (db / 10), 0);
  return {
    durationSeconds: samples.length / audio.sampleRate,
    speechSeconds: speechLevels.length * track.hopSeconds,
    pitch,
    level: {
      rmsDbfs: speechLevels.length > 0 ? 10 * Math.log10(power / speechLevels.length) : null,
      sdDb: speechLevels.length > 1 ? standardDeviation(speechLevels) : null,
      peakDbfs: peak > 0 ? 20 * Math.log10(peak) : -120,
    },
    spectrum: speechSpectrum(audio, track.speech, track.hopSeconds, scale),
  };
}

/** The long-term spectrum of the frames inside speech: its centroid and presence share. */
function speechSpectrum(
  audio: VoiceAudio,
  speech: boolean[],
  hopSeconds: number,
  scale: number,
): ProsodyMeasures['spectrum'] {
  const { sampleRate, samples } = audio;
  const sum = new Float64Array(SPECTRUM_SIZE / 2 + 1);
  const re = new Float64Array(SPECTRUM_SIZE);
  const im = new Float64Array(SPECTRUM_SIZE);
  let frames = 0;
  for (let start = 0; start + SPECTRUM_SIZE <= samples.length; start += SPECTRUM_SIZE / 2) {
    const frame = Math.round((start + SPECTRUM_SIZE / 2) / sampleRate / hopSeconds);
    if (!speech[Math.min(frame, speech.length - 1)]) continue;
    im.fill(0);
    for (let i = 0; i < SPECTRUM_SIZE; i++) {
      const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / SPECTRUM_SIZE);
      re[i] = (samples[start + i] ?? 0) * scale * hann;
    }
    fft(re, im);
    for (let k = 0; k < sum.length; k++) sum[k] = (sum[k] ?? 0) + (re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2;
    frames++;
  }
  if (frames === 0) return { centroidHz: null, presenceDb: null };
  let total = 0;
  let weighted = 0;
  let presence = 0;
  for (let k = 0; k < sum.length; k++) {
    const hz = (k * sampleRate) / SPECTRUM_SIZE;
    if (hz < 60) continue;
    const p = sum[k] ?? 0;
    total += p;
    weighted += p * hz;
    if (hz >= PRESENCE_LOW_HZ && hz <= PRESENCE_HIGH_HZ) presence += p;
  }
  if (total <= 0) return { centroidHz: null, presenceDb: null };
  return {
    centroidHz: weighted / total,
    presenceDb: presence > 0 ? 10 * Math.log10(presence / total) : -120,
  };
}

function quantile(sorted: readonly number[], q: number): number {
  const position = q * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.min(sorted.length - 1, low + 1);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low);
}

function standardDeviation(values: readonly number[]): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
}
