import { seededRandom } from '@parla/audio';

/*
 * What voice settings do to a sentence's samples after the engine (issue 18 item 3): style's energy and
 * speaker boost's presence and loudness. Plain loops over the samples, in a few passes: they run on the
 * server's event loop for every sentence, never over a whole response, so a streamed answer sounds the
 * same as the whole one (costs: docs/areas/engines.md "Voice settings and what they cost").
 */

/** Level blocks of 10 ms: the envelope both effects follow. */
const BLOCK_SECONDS = 0.01;
/** Blocks further below the loudest than this are pauses, not speech. */
const SPEECH_GATE_DB = 40;
/** The peak ceiling after any gain: −1 dBFS. */
const CEILING = 32767 * 10 ** (-1 / 20);

/** style 1 widens the level's swings around the speech level by this much (×1.6 at full style). */
const STYLE_EXPANSION = 0.6;
/** The most style raises or lowers a block, in dB. */
const STYLE_MAX_BOOST_DB = 6;
const STYLE_MAX_CUT_DB = 12;

/** Speaker boost: a presence peak (RBJ peaking EQ) at this frequency, gain and Q… */
const PRESENCE_HZ = 3000;
const PRESENCE_DB = 3;
const PRESENCE_Q = 0.8;
/** …then the speech brought up to this RMS level (mean square, dBFS)… */
const BOOST_TARGET_DBFS = -15;
/** …by at least this much (a voice already that loud still gets louder)… */
const BOOST_MIN_GAIN_DB = 3;
/** …and at most this much (a whisper stays a whisper). */
const BOOST_MAX_GAIN_DB = 12;

/**
 * Style: the level of each 10 ms block moves away from the sentence's speech level by STYLE_EXPANSION ×
 * style times its distance (loud syllables louder, soft ones softer), the gain interpolated between
 * blocks so nothing clicks; peaks stay under −1 dBFS. 0 gives the samples back.
 */
export function exaggerateEnergy(samples: Int16Array, sampleRate: number, style: number): Int16Array {
  const amount = STYLE_EXPANSION * Math.min(1, Math.max(0, style));
  if (amount === 0 || samples.length === 0) return samples;
  const block = Math.max(1, Math.round(sampleRate * BLOCK_SECONDS));
  const levels = blockLevelsDb(samples, block);
  const speech = speechLevel(levels);
  if (speech === undefined) return samples;
  const gains = levels.map((level) => {
    const db = Math.max(-STYLE_MAX_CUT_DB, Math.min(STYLE_MAX_BOOST_DB, amount * (level - speech.levelDb)));
    return 10 ** (db / 20);
  });
  const out = new Float32Array(samples.length);
  // Linear between the blocks' centres (the first and last gains held to the ends).
  const half = Math.floor(block / 2);
  for (let b = -1; b < gains.length; b++) {
    const from = b < 0 ? 0 : b * block + half;
    const to = b + 1 < gains.length ? (b + 1) * block + half : samples.length;
    const g0 = gains[Math.max(0, b)] as number;
    const g1 = gains[Math.min(gains.length - 1, b + 1)] as number;
    const step = to > from ? (g1 - g0) / (to - from) : 0;
    for (let i = from, g = g0; i < Math.min(to, samples.length); i++, g += step)
      out[i] = (samples[i] as number) * g;
  }
  return toInt16(limit(out, sampleRate));
}

/**
 * Speaker boost: presence (a +3 dB peak around 3 kHz, where speech is understood; +6 dB made the 16 kHz flite kal voice less intelligible to a recognizer, 16.7% word errors against 11.1%) and loudness (the
 * speech brought up to −15 dBFS RMS, by 3 dB at least and 12 dB at most), with a look-ahead limiter
 * holding the peaks under −1 dBFS. A `quiet` piece (a whisper, a negative delivery gain) gets only the
 * least gain, so it stays as far below the voice as its delivery says.
 */
export function speakerBoost(
  samples: Int16Array,
  sampleRate: number,
  { quiet = false }: { quiet?: boolean } = {},
): Int16Array {
  if (samples.length === 0) return samples;
  const bright = presencePeak(samples, sampleRate);
  const block = Math.max(1, Math.round(sampleRate * BLOCK_SECONDS));
  const speech = speechLevel(blockLevelsDb(bright, block));
  if (speech !== undefined) {
    // A piece meant to be quiet (a whisper) rises by the least gain in all, presence included: brought up
    // to the target like the rest of the voice (and a whisper's noise gains most from the presence peak),
    // it would come out as loud as normal speech before its own negative gain.
    const before = quiet ? speechLevel(blockLevelsDb(samples, block)) : undefined;
    const gainDb = before
      ? BOOST_MIN_GAIN_DB - (speech.levelDb - before.levelDb)
      : Math.min(BOOST_MAX_GAIN_DB, Math.max(BOOST_MIN_GAIN_DB, BOOST_TARGET_DBFS - speech.levelDb));
    const gain = 10 ** (gainDb / 20);
    for (let i = 0; i < bright.length; i++) bright[i] = (bright[i] as number) * gain;
  }
  return toInt16(limit(bright, sampleRate));
}

/** The RBJ-cookbook peaking filter at PRESENCE_HZ (skipped where the rate leaves no room above it). */
function presencePeak(samples: Int16Array, sampleRate: number): Float32Array {
  const out = new Float32Array(samples.length);
  if (sampleRate < 2.5 * PRESENCE_HZ) {
    out.set(samples);
    return out;
  }
  const a = 10 ** (PRESENCE_DB / 40);
  const w = (2 * Math.PI * PRESENCE_HZ) / sampleRate;
  const alpha = Math.sin(w) / (2 * PRESENCE_Q);
  const a0 = 1 + alpha / a;
  const b0 = (1 + alpha * a) / a0;
  const b1 = (-2 * Math.cos(w)) / a0;
  const b2 = (1 - alpha * a) / a0;
  const a1 = b1;
  const a2 = (1 - alpha / a) / a0;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i] as number;
    const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    out[i] = y;
  }
  return out;
}

/** Mean-square level of each block, in dBFS (−120 for silence). */
function blockLevelsDb(samples: ArrayLike<number>, block: number): number[] {
  const levels: number[] = [];
  for (let start = 0; start < samples.length; start += block) {
    const end = Math.min(samples.length, start + block);
    let sum = 0;
    for (let i = start; i < end; i++) sum += ((samples[i] as number) / 32768) ** 2;
    const power = sum / (end - start);
    levels.push(power > 0 ? Math.max(-120, 10 * Math.log10(power)) : -120);
  }
  return levels;
}

/** The RMS level (dBFS) of the blocks that are speech (within SPEECH_GATE_DB of the loudest). */
function speechLevel(levels: readonly number[]): { levelDb: number } | undefined {
  const loudest = Math.max(...levels);
  if (!(loudest > -100)) return undefined;
  let power = 0;
  let count = 0;
  for (const level of levels) {
    if (level < loudest - SPEECH_GATE_DB) continue;
    power += 10 ** (level / 10);
    count++;
  }
  return { levelDb: 10 * Math.log10(power / count) };
}

/**
 * A look-ahead peak limiter at −1 dBFS: the gain needed by any sample in the next 5 ms is reached by a
 * ramp over those 5 ms, and comes back over 60 ms. Samples already under the ceiling pass unchanged.
 */
function limit(x: Float32Array, sampleRate: number): Float32Array {
  let peak = 0;
  for (let i = 0; i < x.length; i++) peak = Math.max(peak, Math.abs(x[i] as number));
  if (peak <= CEILING) return x;
  const ahead = Math.max(1, Math.round(0.005 * sampleRate));
  const releaseStep = 1 / Math.max(1, Math.round(0.06 * sampleRate));
  const need = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const level = Math.abs(x[i] as number);
    need[i] = level > CEILING ? CEILING / level : 1;
  }
  // Backwards: the gain ramps down over `ahead` samples before a peak that needs it.
  const gain = new Float32Array(x.length);
  let next = 1;
  for (let i = x.length - 1; i >= 0; i--) {
    next = Math.min(need[i] as number, next + 1 / ahead);
    gain[i] = next;
  }
  // Forwards: after a peak the gain comes back slowly.
  let previous = 1;
  for (let i = 0; i < x.length; i++) {
    previous = Math.min(gain[i] as number, previous + releaseStep);
    x[i] = (x[i] as number) * previous;
  }
  return x;
}

function toInt16(x: Float32Array): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(x[i] as number)));
  return out;
}

/**
 * Numbers in [−1, 1) for a sentence, the same for the same seed and sentence (mulberry32): what low
 * stability varies a sentence's pitch and pace by. `seed` picks another pattern.
 */
export function sentenceVariation(seed: number, sentence: number): { pitch: number; pace: number } {
  const random = seededRandom(Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(sentence + 1, 0x85ebca77));
  const next = () => random() * 2 - 1;
  return { pitch: next(), pace: next() };
}
