import { analyzeVoice, mergeProfiles, type VoiceAudio, type VoiceProfile } from './voice-profile';

/*
 * Speaker separation for professional clones (issue 7 item 3): which parts of a recording are spoken by
 * whom. Voice activity by frame energy cuts the speech into utterances of at most 3 s; each utterance is
 * profiled (analyzeVoice: median pitch and spectral envelope); then agglomerative clustering merges the
 * two nearest clusters (speakerDistance of their merged profiles) until the nearest pair is further apart
 * than a threshold. Pure and synchronous. It tells apart voices that differ in pitch or timbre, as two
 * speakers of a podcast do; it cannot tell apart two recordings of one speaker, and it does not try.
 */

export interface Utterance {
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
}

export interface SeparatedSpeaker {
  speakerId: string;
  durationSecs: number;
  utterances: Utterance[];
  profile: VoiceProfile;
}

export interface SeparationOptions {
  /** Clusters further apart than this (speakerDistance units) are different speakers. Default 1. */
  threshold?: number;
  /** Utterances are cut at most this long (s). Default 3. */
  maxUtteranceSeconds?: number;
}

const FRAME_SECONDS = 0.03;
/** Silence shorter than this inside speech does not end an utterance. */
const MAX_GAP_SECONDS = 0.3;
/** Speech shorter than this is not an utterance (a click, a breath). */
const MIN_UTTERANCE_SECONDS = 0.4;
/** A frame is speech this far above the recording's quiet floor (its 10th percentile level). */
const SPEECH_ABOVE_FLOOR_DB = 12;
/** The most utterances clustered (about 15 minutes of speech): the clustering is cubic in their count. */
const MAX_UTTERANCES = 300;
/** A cluster with less speech than this is not reported as a speaker. */
const MIN_SPEAKER_SECONDS = 1;

/**
 * How far apart two speakers sound, from short utterances: one unit is a quarter octave (3 semitones) of
 * median pitch; the spectral envelope adds a quarter unit per 6 dB RMS. The envelope of a 2 s utterance
 * follows its vowels more than its speaker (two utterances of one voice measured ~5 dB apart), so pitch
 * leads; a man and a woman are 3–4 units apart, one speaker's utterances under 1.
 */
export function speakerDistance(a: VoiceProfile, b: VoiceProfile): number {
  const pa = a.pitch.medianHz;
  const pb = b.pitch.medianHz;
  const pitch = pa !== null && pb !== null ? Math.abs(Math.log2(pa / pb)) / 0.25 : 1;
  const ea = a.spectralEnvelope.melBandsDb;
  const eb = b.spectralEnvelope.melBandsDb;
  let envelope = 0;
  if (ea && eb) {
    let sum = 0;
    for (let i = 0; i < ea.length; i++) sum += ((ea[i] ?? 0) - (eb[i] ?? 0)) ** 2;
    envelope = Math.sqrt(sum / Math.max(1, ea.length)) / 6;
  }
  return pitch + 0.25 * envelope;
}

/** Utterances of speech by frame energy, cut at most `maxSeconds` long. */
export function findUtterances(audio: VoiceAudio, maxSeconds = 3): Utterance[] {
  const { sampleRate, samples } = audio;
  const frame = Math.max(1, Math.round(FRAME_SECONDS * sampleRate));
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  const levels: number[] = [];
  for (let at = 0; at + frame <= samples.length; at += frame) {
    let sum = 0;
    for (let i = at; i < at + frame; i++) {
      const v = (samples[i] as number) * scale;
      sum += v * v;
    }
    levels.push(10 * Math.log10(sum / frame + 1e-12));
  }
  if (levels.length === 0) return [];
  const sorted = [...levels].sort((a, b) => a - b);
  const floor = sorted[Math.floor(sorted.length * 0.1)] as number;
  const gate = Math.max(floor + SPEECH_ABOVE_FLOOR_DB, -55);
  const runs: Utterance[] = [];
  let start = -1;
  let lastSpeech = -1;
  const maxGap = Math.round(MAX_GAP_SECONDS / FRAME_SECONDS);
  levels.forEach((level, i) => {
    if (level < gate) return;
    if (start >= 0 && i - lastSpeech > maxGap) {
      runs.push({ start: start * FRAME_SECONDS, end: (lastSpeech + 1) * FRAME_SECONDS });
      start = -1;
    }
    if (start < 0) start = i;
    lastSpeech = i;
  });
  if (start >= 0) runs.push({ start: start * FRAME_SECONDS, end: (lastSpeech + 1) * FRAME_SECONDS });
  const out: Utterance[] = [];
  for (const run of runs) {
    if (run.end - run.start < MIN_UTTERANCE_SECONDS) continue;
    const pieces = Math.ceil((run.end - run.start) / maxSeconds);
    const length = (run.end - run.start) / pieces;
    for (let p = 0; p < pieces; p++)
      out.push({
        start: run.start + p * length,
        end: p === pieces - 1 ? run.end : run.start + (p + 1) * length,
      });
  }
  return out;
}

function slice(audio: VoiceAudio, utterance: Utterance): VoiceAudio {
  const from = Math.floor(utterance.start * audio.sampleRate);
  const to = Math.min(audio.samples.length, Math.ceil(utterance.end * audio.sampleRate));
  return { sampleRate: audio.sampleRate, samples: audio.samples.subarray(from, to) };
}

interface Cluster {
  utterances: Utterance[];
  profile: VoiceProfile;
}

/** The speakers of a recording, the one who speaks most first (`speaker_0`, `speaker_1`, …). */
export function separateSpeakers(audio: VoiceAudio, options: SeparationOptions = {}): SeparatedSpeaker[] {
  const threshold = options.threshold ?? 1;
  const utterances = findUtterances(audio, options.maxUtteranceSeconds ?? 3).slice(0, MAX_UTTERANCES);
  // Utterances without voiced speech (noise, whispers) have no pitch to compare and are left out.
  let clusters: Cluster[] = utterances.flatMap((utterance) => {
    const profile = analyzeVoice(slice(audio, utterance));
    return profile.pitch.medianHz === null ? [] : [{ utterances: [utterance], profile }];
  });
  while (clusters.length > 1) {
    let best = { i: -1, j: -1, distance: Number.POSITIVE_INFINITY };
    for (let i = 0; i < clusters.length; i++) {
      for (let j = i + 1; j < clusters.length; j++) {
        const distance = speakerDistance((clusters[i] as Cluster).profile, (clusters[j] as Cluster).profile);
        if (distance < best.distance) best = { i, j, distance };
      }
    }
    if (best.distance > threshold) break;
    const a = clusters[best.i] as Cluster;
    const b = clusters[best.j] as Cluster;
    const merged: Cluster = {
      utterances: [...a.utterances, ...b.utterances].sort((x, y) => x.start - y.start),
      profile: mergeProfiles([a.profile, b.profile]),
    };
    clusters = clusters.filter((_, k) => k !== best.i && k !== best.j);
    clusters.push(merged);
  }
  const spoken = (c: Cluster) => c.utterances.reduce((sum, u) => sum + (u.end - u.start), 0);
  return clusters
    .filter((c) => spoken(c) >= MIN_SPEAKER_SECONDS)
    .sort((a, b) => spoken(b) - spoken(a))
    .map((c, index) => ({
      speakerId: `speaker_${index}`,
      durationSecs: Math.round(spoken(c) * 100) / 100,
      utterances: c.utterances.map((u) => ({
        start: Math.round(u.start * 1000) / 1000,
        end: Math.round(u.end * 1000) / 1000,
      })),
      profile: c.profile,
    }));
}

/** Peak levels (0–1) of `points` equal parts of the audio, for drawing its waveform. */
export function visualWaveform(audio: VoiceAudio, points = 200): number[] {
  const { samples } = audio;
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  const out: number[] = [];
  for (let p = 0; p < points; p++) {
    const from = Math.floor((p * samples.length) / points);
    const to = Math.floor(((p + 1) * samples.length) / points);
    let peak = 0;
    for (let i = from; i < to; i++) peak = Math.max(peak, Math.abs((samples[i] as number) * scale));
    out.push(Math.round(Math.min(1, peak) * 1000) / 1000);
  }
  return out;
}
