import type { NormalizedText } from './text-normalization';

/** Where a word of a text is in its audio: character offsets [start, end) and milliseconds. */
export interface WordTiming {
  start: number;
  end: number;
  startMs: number;
  endMs: number;
}

/** The public API's character alignment: one entry per character, times in seconds. */
export interface CharacterAlignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

/** Per-character [start, end] ms of a text from its word times; characters between words take the gap. */
export function characterTimes(
  text: string,
  words: readonly WordTiming[],
  totalMs: number,
): [number, number][] {
  const times: [number, number][] = new Array(text.length);
  const sorted = [...words].sort((a, b) => a.start - b.start);
  let cursor = 0;
  let previousEnd = 0;
  for (const word of sorted) {
    if (word.start < cursor) continue;
    // The gap before the word: its characters share the silence between the two words.
    for (let i = cursor; i < word.start; i += 1)
      times[i] = [previousEnd, Math.max(previousEnd, word.startMs)];
    const length = Math.max(1, word.end - word.start);
    const span = Math.max(0, word.endMs - word.startMs);
    for (let i = word.start; i < word.end && i < text.length; i += 1) {
      const k = i - word.start;
      times[i] = [word.startMs + (span * k) / length, word.startMs + (span * (k + 1)) / length];
    }
    cursor = word.end;
    previousEnd = Math.max(previousEnd, word.endMs);
  }
  for (let i = cursor; i < text.length; i += 1) times[i] = [previousEnd, Math.max(previousEnd, totalMs)];
  return times;
}

/**
 * Alignment for `text` from per-UTF-16-unit ms times: one entry per character (code point), so an emoji
 * is one character spanning both its units; a lone surrogate (not text, and refused by JSON storage)
 * becomes U+FFFD.
 */
export function toAlignment(text: string, times: readonly [number, number][]): CharacterAlignment {
  const round = (ms: number) => Math.round(ms) / 1000;
  const alignment: CharacterAlignment = {
    characters: [],
    character_start_times_seconds: [],
    character_end_times_seconds: [],
  };
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && /[\udc00-\udfff]/.test(text[i + 1] ?? '');
    const lone = !pair && code >= 0xd800 && code <= 0xdfff;
    alignment.characters.push(pair ? text.slice(i, i + 2) : lone ? '\ufffd' : (text[i] as string));
    alignment.character_start_times_seconds.push(round(times[i]?.[0] ?? 0));
    if (pair) i += 1;
    alignment.character_end_times_seconds.push(round(times[i]?.[1] ?? 0));
  }
  return alignment;
}

/**
 * The alignment of the text as written, from the times of the normalised text: a stretch written as is
 * keeps its characters' times; a replaced stretch ("$5" → "five dollars") spreads the spoken time over
 * the written characters; a v3 audio tag gets no duration at the point where it stands.
 */
export function originalTimes(
  normalized: NormalizedText,
  spokenTimes: readonly [number, number][],
  originalLength: number,
): [number, number][] {
  const times: [number, number][] = new Array(originalLength);
  let at = 0;
  let last: [number, number] = [0, 0];
  for (const segment of normalized.segments) {
    const spokenLength = segment.spoken.length;
    const writtenLength = segment.end - segment.start;
    if (segment.tags || spokenLength === 0) {
      // Audio tags take no time: their characters sit where the next spoken character starts.
      const point = at === 0 ? 0 : (spokenTimes[at]?.[0] ?? last[1]);
      for (let k = 0; k < writtenLength; k += 1) times[segment.start + k] = [point, point];
    } else if (spokenLength === writtenLength) {
      for (let k = 0; k < writtenLength; k += 1) times[segment.start + k] = spokenTimes[at + k] ?? last;
    } else {
      const from = spokenTimes[at]?.[0] ?? last[1];
      const to = spokenTimes[at + spokenLength - 1]?.[1] ?? from;
      for (let k = 0; k < writtenLength; k += 1) {
        times[segment.start + k] = [
          from + ((to - from) * k) / writtenLength,
          from + ((to - from) * (k + 1)) / writtenLength,
        ];
      }
    }
    at += spokenLength;
    last = times[segment.end - 1] ?? last;
  }
  for (let i = 0; i < originalLength; i += 1) times[i] ??= last;
  return times;
}
