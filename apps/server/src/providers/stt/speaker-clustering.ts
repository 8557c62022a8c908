/*
 * Diarization for speech to text (issue 19 item 1: "Diarization uses the speaker clustering that speaker
 * separation already has"): each voice-activity segment is profiled in the engine thread (analyzeVoice:
 * median pitch and mel spectral envelope, @parla/audio), and the server clusters the profiles with the same
 * agglomerative merge and the same distance (speakerDistance) as professional-clone speaker separation.
 *
 * Limits (measured in speaker-clustering.test.ts): voices that differ in pitch or timbre — a man and a
 * woman, about 3–4 distance units apart — are told apart; two similar voices (under about a quarter octave
 * of median pitch and a similar envelope) are one speaker; a segment without voiced speech (under 0.2 s
 * voiced: a laugh, a whisper, noise) has no profile and gets no speaker; a segment where two people speak
 * goes to whichever voice dominates it.
 */
import { analyzeVoice, mergeProfiles, speakerDistance, type VoiceProfile } from '@parla/audio';

export type { VoiceProfile };

/** The public `diarization_threshold` range and default. */
export const DIARIZATION_THRESHOLD_MIN = 0.1;
export const DIARIZATION_THRESHOLD_MAX = 0.4;
export const DIARIZATION_THRESHOLD_DEFAULT = 0.22;
/**
 * speakerDistance units at the public threshold's ends: 0.1 → 0.6 (keeps voices apart that differ by
 * ~2 semitones), the default 0.22 → 1.2, 0.4 → 2.1 (merges all but clearly different voices). Speaker
 * separation uses 1; one speaker's utterances measure under 1, a man and a woman 3–4 apart.
 */
const DISTANCE_AT_MIN = 0.6;
const DISTANCE_AT_MAX = 2.1;
/** The most segments clustered by distance (the merge is cubic in their count); later ones join the nearest. */
const MAX_CLUSTERED = 300;

/** A segment's voice (16 kHz mono floats); undefined without enough voiced speech to compare. */
export function profileSegment(samples: Float32Array): VoiceProfile | undefined {
  if (samples.length === 0) return undefined;
  const profile = analyzeVoice({ sampleRate: 16_000, samples });
  return profile.pitch.medianHz === null ? undefined : profile;
}

/** The public diarization_threshold (higher: fewer speakers) as a speakerDistance merge limit. */
export function thresholdDistance(threshold = DIARIZATION_THRESHOLD_DEFAULT): number {
  const t = Math.min(DIARIZATION_THRESHOLD_MAX, Math.max(DIARIZATION_THRESHOLD_MIN, threshold));
  const share = (t - DIARIZATION_THRESHOLD_MIN) / (DIARIZATION_THRESHOLD_MAX - DIARIZATION_THRESHOLD_MIN);
  return DISTANCE_AT_MIN + share * (DISTANCE_AT_MAX - DISTANCE_AT_MIN);
}

interface Cluster {
  members: number[];
  profile: VoiceProfile;
  seconds: number;
}

/**
 * The speaker of each segment, undefined where the segment has no profile. `profiles` are in the order the
 * segments are spoken, and speakers are numbered in the order they first speak: `speaker_0` is whoever
 * speaks first (issue 26 item 7: it was the one heard most, so a transcript could open with "Speaker 2").
 * Clusters merge nearest first while closer than the threshold's distance, and past it while there are
 * more than `numSpeakers`.
 */
export function clusterSpeakers(
  profiles: (VoiceProfile | undefined)[],
  options: { numSpeakers?: number; threshold?: number },
): (string | undefined)[] {
  const limit = thresholdDistance(options.threshold);
  const cap =
    options.numSpeakers !== undefined && options.numSpeakers >= 1
      ? Math.floor(options.numSpeakers)
      : undefined;
  const indexed = profiles.flatMap((profile, index) => (profile ? [{ profile, index }] : []));
  let clusters: Cluster[] = indexed.slice(0, MAX_CLUSTERED).map(({ profile, index }) => ({
    members: [index],
    profile,
    seconds: profile.speechSeconds,
  }));
  while (clusters.length > 1) {
    let best = { i: -1, j: -1, distance: Number.POSITIVE_INFINITY };
    for (let i = 0; i < clusters.length; i++)
      for (let j = i + 1; j < clusters.length; j++) {
        const distance = speakerDistance((clusters[i] as Cluster).profile, (clusters[j] as Cluster).profile);
        if (distance < best.distance) best = { i, j, distance };
      }
    if (best.distance > limit && (cap === undefined || clusters.length <= cap)) break;
    const a = clusters[best.i] as Cluster;
    const b = clusters[best.j] as Cluster;
    clusters = clusters.filter((_, k) => k !== best.i && k !== best.j);
    clusters.push({
      members: [...a.members, ...b.members],
      profile: mergeProfiles([a.profile, b.profile], [a.seconds, b.seconds]),
      seconds: a.seconds + b.seconds,
    });
  }
  // Segments past MAX_CLUSTERED join the nearest cluster.
  for (const { profile, index } of indexed.slice(MAX_CLUSTERED)) {
    let nearest = clusters[0] as Cluster;
    for (const c of clusters)
      if (speakerDistance(c.profile, profile) < speakerDistance(nearest.profile, profile)) nearest = c;
    nearest.members.push(index);
    nearest.seconds += profile.speechSeconds;
  }
  const speakers: (string | undefined)[] = new Array(profiles.length).fill(undefined);
  [...clusters]
    .map((cluster) => ({ cluster, first: cluster.members.reduce((a, b) => Math.min(a, b)) }))
    .sort((x, y) => x.first - y.first)
    .forEach(({ cluster }, rank) => {
      for (const member of cluster.members) speakers[member] = `speaker_${rank}`;
    });
  return speakers;
}

/**
 * Every segment with a speaker: one without a profile (a laugh, a whisper) gets the speaker of the segment
 * before it, or of the one after it when it comes first; `speaker_0` when no segment has one.
 */
export function fillUnprofiledSpeakers(speakers: readonly (string | undefined)[]): string[] {
  const firstKnown = speakers.find((s) => s !== undefined) ?? 'speaker_0';
  let previous: string | undefined;
  return speakers.map((speaker) => {
    previous = speaker ?? previous;
    return previous ?? firstKnown;
  });
}
