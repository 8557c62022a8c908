/**
 * The speech engines (issue 4 "Engines"): three run inside the engine child processes; `external` is an
 * OpenAI-compatible server, called from the server process (openai-compatible-tts.ts).
 */
import type { WordTiming } from '@parla/audio';

/** The words of a text with their character offsets (letters, digits and the marks inside words). */
export function wordSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.,$%-]*[\p{L}\p{N}%]|[\p{L}\p{N}]/gu)) {
    spans.push({ start: match.index, end: match.index + match[0].length });
  }
  return spans;
}

/**
 * Spreads words over [fromMs, toMs] in proportion to their length: the fallback for engines that do not
 * report word times (flite), used phrase by phrase so pauses stay where they are.
 */
export function spreadWords(
  spans: readonly { start: number; end: number }[],
  fromMs: number,
  toMs: number,
): WordTiming[] {
  const total = spans.reduce((sum, span) => sum + (span.end - span.start) + 1, 0);
  if (total === 0) return [];
  const perChar = (toMs - fromMs) / total;
  let at = fromMs;
  return spans.map((span) => {
    const length = (span.end - span.start + 1) * perChar;
    const timing = {
      start: span.start,
      end: span.end,
      startMs: Math.round(at),
      endMs: Math.round(at + length),
    };
    at += length;
    return timing;
  });
}

/**
 * The time bound of one synthesis, in proportion to its text (issue 16): 10 s to start (a child's first
 * festival call loads its voice, ~1 s of CPU, several times that on a loaded machine) plus 50 ms a
 * character — over ten times what the slowest engine needs here (Festival's HTS voice ~3–7 ms a character
 * of words, ~14 ms of spelled letters) — and never more than `capMs` (ENGINE_TIMEOUT_MS). Texts reach an
 * engine in pieces of at most MAX_ENGINE_TEXT weighted characters (text-normalization.ts), so a bound is
 * at most 10 s + 7.5 s, against 30 s for any text before.
 */
export function synthesisBoundMs(characters: number, capMs: number): number {
  return Math.min(capMs, 10_000 + 50 * characters);
}
