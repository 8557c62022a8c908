/**
 * The speech engines (issue 4 "Engines"): three run inside the engine child processes; `external` is an
 * OpenAI-compatible server, called from the server process (tts-provider.ts).
 */
export type { EngineName } from '@parla/contracts';

import type { WordTiming } from '@parla/audio';
import type { EngineName } from '@parla/contracts';

export type { WordTiming } from '@parla/audio';

/** One synthesis, as the engine child receives it. Never SSML: plain text only (flite loops on prosody). */
export interface EngineSynthesisRequest {
  engine: EngineName;
  /** The engine's own voice name: an eSpeak voice (`en-us+f3`), a flite voice (`slt`), a festival voice. */
  voice: string;
  text: string;
  /** Speaking rate, 1 = the voice's own (0.5–2). */
  rate?: number;
  /** Pitch as a multiple of the voice's own (0.5–2); engines that cannot shift pitch ignore it. */
  pitch?: number;
  /** Intonation range as a multiple of the voice's own (0 monotone – 2 lively); festival ignores it. */
  range?: number;
}

/**
 * Whether an engine voice takes `pitch` and `range` itself: eSpeak-NG (its pitch and range settings) and
 * the flite voices with pitch targets (int_f0_target_mean / int_f0_target_stddev; flite-engine.ts).
 * Festival's HTS voice, flite's rms and an external server ignore them: the speech pipeline moves their
 * pitch and widens or narrows their intonation afterwards (intonation.ts, voice-transform.ts).
 */
export function intonationIsNative(voice: { engine: EngineName; voice: string }): boolean {
  if (voice.engine === 'espeak') return true;
  return voice.engine === 'flite' && voice.voice !== 'rms';
}

/** How a synthesis is run: its time bound, its cancel signal and whose work it is. */
export interface SynthesisOptions {
  /** The bound of the engine's work once it starts (default: synthesisBoundMs of the text). */
  timeoutMs?: number | undefined;
  /** Cancels the synthesis while it still waits to start. */
  signal?: AbortSignal | undefined;
  /** Whose work it is (a workspace id), for the engines' fair queue; calls without one share "". */
  tenant?: string | undefined;
}

export interface EngineSynthesisResult {
  sampleRate: number;
  /** Mono signed 16-bit PCM. */
  samples: Int16Array;
  words: WordTiming[];
  /** `exact` when the engine reported the times, `estimated` when they were spread over the audio. */
  timing: 'exact' | 'estimated';
}

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

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
