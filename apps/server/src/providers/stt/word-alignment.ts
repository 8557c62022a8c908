/*
 * Word (and character) times for a stretch of speech whose words are known (issue 19 "Word timestamps"):
 * the recogniser gives text, not times. eSpeak reads the same words (numbers, currency and abbreviations
 * spoken as they were said: "$25" → "twenty-five dollars", text-normalization.ts), and its word events say
 * where each word is in that reading. Both are turned into MFCC frames (alignment-dtw.ts) and aligned by
 * dynamic time warping in a Sakoe–Chiba band; each word's span in the reading, trimmed to its sound, is
 * carried through the warp onto the recording, then trimmed to the recording's own sound (a word never
 * starts or ends in a pause). Runs in the engine thread (eSpeak is called directly).
 */

import { type NormalizedText, normalizeEnglish } from '@parla/audio';
import { synthesizeWithESpeak } from '../tts/engines/espeak-engine';
import { type FeatureFrames, featureFrames, HOP_SECONDS, joinFrames, warp } from './alignment-dtw';

/** The rate of the samples the alignment takes (the speech-to-text pipeline's). */
export const ALIGNMENT_SAMPLE_RATE = 16_000;

export interface WordAlignment {
  /** One per input word, in seconds from the start of the samples; `loss` 0 a perfect match, ~1 none. */
  words: { start: number; end: number; loss: number }[];
  /** With `characters`: each word's characters, in order, covering its time. */
  characters?: { start: number; end: number }[][];
}

/** The eSpeak voice of the reading: American English at its own rate. */
const READING_VOICE = 'en-us';
/**
 * The band either side of the warp's diagonal: 30 % of the longer sequence, at least 0.5 s. A recogniser's
 * segment and eSpeak's reading of it differ in pace by up to about 1.5× (measured on the TTS voices:
 * 0.8–1.4×) and in pauses; a band of 30 % covers that while keeping the work at 0.6 × n × m cells.
 */
const BAND_SHARE = 0.3;
const MIN_BAND_FRAMES = 50;
/** Words per eSpeak call: a segment's words in one call; a long text in pieces of about 20 s. */
const READ_CHUNK_WORDS = 60;
/** A frame of the reading is sound this far under its loudest frame (eSpeak's silence is digital zero). */
const READING_SOUND_DB = 50;
/**
 * A frame of the recording is sound above max(floor + 12 dB, peak − 45 dB), where the floor is its 10th
 * percentile level: a room's noise stays under it, quiet consonants (f, th) above it.
 */
const SOUND_ABOVE_FLOOR_DB = 12;
const SOUND_UNDER_PEAK_DB = 45;
/** A word's quietest sound (a final s, f or t) stands within this of its loudest (a vowel). */
const WORD_DYNAMICS_DB = 35;
/** Characters that take no time of their own: punctuation around a word. */
const SILENT_CHARACTER = /[.,!?;:"“”«»()[\]{}…¿¡]/u;

/** A word's span in eSpeak's reading, in frames [start, end). */
export interface ReadingSpan {
  start: number;
  end: number;
}

export interface Reading {
  frames: FeatureFrames;
  /** Per input word; undefined for a word eSpeak said nothing for (a lone symbol). */
  spans: (ReadingSpan | undefined)[];
}

/**
 * Where each word is in `samples` (16 kHz mono floats in −1…1, one voice-activity segment: at most about
 * 30 s, see forced-alignment.ts for longer audio). Words are as the recogniser wrote them, punctuation
 * attached. Character times split a word's time in proportion to its characters' count, punctuation
 * taking none (eSpeak gives word events, not phoneme events, so nothing finer is measured).
 */
export async function alignWords(
  samples: Float32Array,
  words: string[],
  options: { characters: boolean },
): Promise<WordAlignment> {
  if (words.length === 0) return options.characters ? { words: [], characters: [] } : { words: [] };
  const recording = featureFrames(samples, ALIGNMENT_SAMPLE_RATE);
  const reading = await readWords(words);
  const duration = samples.length / ALIGNMENT_SAMPLE_RATE;
  const times =
    recording.count < 2 || reading.frames.count < 2
      ? evenSplit(words, 0, duration).map((t) => ({ ...t, loss: 1 }))
      : warpWords(recording, reading, duration);
  const result: WordAlignment = {
    words: times.map((t) => ({ start: round(t.start), end: round(t.end), loss: round(t.loss) })),
  };
  if (options.characters)
    result.characters = words.map((word, i) =>
      characterSpans(word, result.words[i] as { start: number; end: number }),
    );
  return result;
}

/** The words' times through the warp, trimmed to the recording's sound. */
function warpWords(
  recording: FeatureFrames,
  reading: Reading,
  duration: number,
): { start: number; end: number; loss: number }[] {
  const band = Math.max(
    MIN_BAND_FRAMES,
    Math.ceil(BAND_SHARE * Math.max(recording.count, reading.frames.count)),
  );
  const path = warp(recording, reading.frames, band);
  const sound = soundFrames(recording.levelDb);
  const last = reading.frames.count - 1;
  const out: { start: number; end: number; loss: number }[] = [];
  for (const span of reading.spans) {
    if (!span) {
      out.push({ start: Number.NaN, end: Number.NaN, loss: 1 });
      continue;
    }
    let from = path.firstA[Math.min(span.start, last)] as number;
    let to = (path.lastA[Math.min(span.end - 1, last)] as number) + 1;
    if (to <= from) to = from + 1;
    // The word's own sound: its first and last frames of sound within the span (if it has any), sound
    // being also no further than WORD_DYNAMICS_DB under the word's loudest frame (a pause's breath or hum).
    let wordPeak = -100;
    for (let f = from; f < to; f++) wordPeak = Math.max(wordPeak, recording.levelDb[f] as number);
    const heard = (f: number) =>
      sound[f] === 1 && (recording.levelDb[f] as number) >= wordPeak - WORD_DYNAMICS_DB;
    let a = from;
    while (a < to && !heard(a)) a += 1;
    let b = to;
    while (b > a && !heard(b - 1)) b -= 1;
    if (b > a) {
      from = a;
      to = b;
    }
    // The loss: the word's warp distance over what a chance match in the band would cost (0 a perfect
    // match, 1 no better than chance).
    let cost = 0;
    let chance = 0;
    for (let f = from; f < to; f++) {
      cost += path.costByA[f] as number;
      chance += path.chanceByA[f] as number;
    }
    const loss = chance > 0 ? Math.min(1, cost / chance) : 1;
    out.push({ start: from * HOP_SECONDS, end: Math.min(duration, to * HOP_SECONDS), loss });
  }
  fillUnheard(out, duration);
  separate(out);
  return out;
}

/**
 * Neighbouring words whose spans the warp made overlap (by a frame or two where one word runs into the
 * next) meet halfway instead: words come out in order, each ending before the next starts.
 */
function separate(times: { start: number; end: number }[]): void {
  for (let i = 1; i < times.length; i++) {
    const previous = times[i - 1] as { start: number; end: number };
    const current = times[i] as { start: number; end: number };
    if (current.start >= previous.end) continue;
    const meet = Math.max(previous.start, Math.min(current.end, (previous.end + current.start) / 2));
    previous.end = meet;
    current.start = meet;
    current.end = Math.max(current.end, meet);
  }
}

/** A word eSpeak said nothing for takes no time, at the end of the word before it. */
function fillUnheard(times: { start: number; end: number }[], duration: number): void {
  let previousEnd = 0;
  for (const t of times) {
    if (Number.isNaN(t.start)) {
      t.start = previousEnd;
      t.end = previousEnd;
    }
    previousEnd = Math.min(duration, Math.max(previousEnd, t.end));
  }
}

/** Which frames of a recording are sound (see SOUND_ABOVE_FLOOR_DB). */
function soundFrames(levelDb: Float32Array): Uint8Array {
  const sorted = Float32Array.from(levelDb).sort();
  const floor = sorted[Math.floor(sorted.length * 0.1)] ?? -100;
  const peak = sorted[sorted.length - 1] ?? 0;
  const gate = Math.max(floor + SOUND_ABOVE_FLOOR_DB, peak - SOUND_UNDER_PEAK_DB);
  return Uint8Array.from(levelDb, (level) => (level >= gate ? 1 : 0));
}

/**
 * eSpeak's reading of the words, with each word's span in it, read READ_CHUNK_WORDS at a time (a long
 * text for forced alignment: only the features of each piece are kept, never the whole reading's audio).
 */
export async function readWords(words: readonly string[]): Promise<Reading> {
  const pieces: FeatureFrames[] = [];
  const spans: (ReadingSpan | undefined)[] = [];
  let offset = 0;
  for (let first = 0; first < words.length; first += READ_CHUNK_WORDS) {
    const piece = await readPiece(words.slice(first, first + READ_CHUNK_WORDS));
    pieces.push(piece.frames);
    for (const span of piece.spans)
      spans.push(span && { start: span.start + offset, end: span.end + offset });
    offset += piece.frames.count;
  }
  return { frames: joinFrames(pieces), spans };
}

/** One eSpeak call: its frames (unnormalised) and each word's span, trimmed to its sound. */
async function readPiece(words: readonly string[]): Promise<Reading> {
  const text = words.join(' ');
  const wordStarts: number[] = [];
  let at = 0;
  for (const word of words) {
    wordStarts.push(at);
    at += word.length + 1;
  }
  const normalized = normalizeEnglish(text);
  const spoken = await synthesizeWithESpeak({
    engine: 'espeak',
    voice: READING_VOICE,
    text: normalized.text,
  });
  const frames = featureFrames(spoken.samples, spoken.sampleRate, false);
  const spans: (ReadingSpan | undefined)[] = new Array(words.length).fill(undefined);
  for (const event of spoken.words) {
    const w = wordAt(wordStarts, originalOffset(normalized, event.start));
    const start = Math.floor(event.startMs / 1000 / HOP_SECONDS);
    const end = Math.max(start + 1, Math.ceil(event.endMs / 1000 / HOP_SECONDS));
    const span = spans[w];
    spans[w] = span ? { start: Math.min(span.start, start), end: Math.max(span.end, end) } : { start, end };
  }
  // A word's span runs to the next word's start: the pause after it (a comma's) is trimmed off.
  const peak = frames.levelDb.reduce((max, level) => Math.max(max, level), -100);
  const isSound = (f: number) => (frames.levelDb[f] ?? -100) >= peak - READING_SOUND_DB;
  for (const [i, span] of spans.entries()) {
    if (!span) continue;
    let { start, end } = span;
    end = Math.min(end, frames.count);
    start = Math.max(0, Math.min(start, end - 1));
    let a = start;
    while (a < end && !isSound(a)) a += 1;
    let b = end;
    while (b > a && !isSound(b - 1)) b -= 1;
    spans[i] = b > a ? { start: a, end: b } : { start, end: Math.max(start + 1, end) };
  }
  return { frames, spans };
}

/** The offset in the written text behind an offset in the spoken (normalised) text. */
function originalOffset(normalized: NormalizedText, spokenOffset: number): number {
  let at = 0;
  for (const segment of normalized.segments) {
    const to = at + segment.spoken.length;
    if (spokenOffset < to) {
      const verbatim = segment.spoken.length === segment.end - segment.start;
      return verbatim ? segment.start + (spokenOffset - at) : segment.start;
    }
    at = to;
  }
  return normalized.segments.at(-1)?.end ?? 0;
}

/** The index of the word whose text holds `offset` (the last word starting at or before it). */
function wordAt(wordStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = wordStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((wordStarts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The naive split: [from, to] shared among the words in proportion to their characters (the baseline the
 * timestamps bench compares with, and the fallback for audio too short to warp).
 */
export function evenSplit(
  words: readonly string[],
  from: number,
  to: number,
): { start: number; end: number }[] {
  const total = words.reduce((sum, w) => sum + w.length + 1, 0);
  let at = from;
  return words.map((word) => {
    const length = ((to - from) * (word.length + 1)) / Math.max(1, total);
    const span = { start: at, end: at + length * (word.length / (word.length + 1)) };
    at += length;
    return span;
  });
}

/** A word's time shared among its characters by count; punctuation takes none (SILENT_CHARACTER). */
export function characterSpans(
  word: string,
  time: { start: number; end: number },
): { start: number; end: number }[] {
  const characters = Array.from(word);
  const weights = characters.map((c) => (SILENT_CHARACTER.test(c) ? 0 : 1));
  const total = weights.reduce<number>((sum, w) => sum + w, 0);
  let at = time.start;
  return characters.map((_, i) => {
    const length = total === 0 ? 0 : ((time.end - time.start) * (weights[i] as number)) / total;
    const span = { start: round(at), end: round(at + length) };
    at += length;
    return span;
  });
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
