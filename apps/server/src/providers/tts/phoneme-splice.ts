import type { WordTiming } from '@parla/audio';
import type { PhonemeSpan } from './tts-provider';

/*
 * An engine's own text with the phoneme spans of a request put in (eSpeak's `[[…]]`, flite's and Festival's
 * placeholder words), and the way back: the word times the engine reports on its text are mapped onto the
 * request's text, a span's times onto the whole written word (issue 30, research-30 §1: eSpeak's word event
 * for a bracketed word covers only its first syllable).
 */

/** A stretch of the engine's text and the stretch of the request's text it stands for. */
interface SplicePiece {
  from: number;
  to: number;
  engineFrom: number;
  engineTo: number;
  /** A span: its inside maps to the whole written word. */
  span: boolean;
}

export interface SplicedText {
  /** What the engine is given. */
  text: string;
  pieces: SplicePiece[];
}

/** The spans of a request that lie in its text, sorted, without overlaps or empty ones. */
export function usableSpans(text: string, spans: readonly PhonemeSpan[] | undefined): PhonemeSpan[] {
  const sorted = [...(spans ?? [])]
    .filter((s) => s.start >= 0 && s.end <= text.length && s.end > s.start && s.ipa.trim().length > 0)
    .sort((a, b) => a.start - b.start);
  const out: PhonemeSpan[] = [];
  for (const span of sorted) if (span.start >= (out.at(-1)?.end ?? 0)) out.push(span);
  return out;
}

/**
 * The request's text with each span replaced by `replace(span, index)` (a span it returns undefined for
 * stays as written) and the text between the spans through `rest` (which must keep its length).
 */
export function spliceSpans(
  text: string,
  spans: readonly PhonemeSpan[],
  replace: (span: PhonemeSpan, index: number) => string | undefined,
  rest: (piece: string) => string = (piece) => piece,
): SplicedText {
  const pieces: SplicePiece[] = [];
  let out = '';
  let at = 0;
  const add = (from: number, to: number, engineText: string, span: boolean) => {
    if (to <= from && engineText.length === 0) return;
    pieces.push({ from, to, engineFrom: out.length, engineTo: out.length + engineText.length, span });
    out += engineText;
  };
  spans.forEach((span, index) => {
    add(at, span.start, rest(text.slice(at, span.start)), false);
    const replaced = replace(span, index);
    if (replaced === undefined) add(span.start, span.end, rest(text.slice(span.start, span.end)), false);
    else add(span.start, span.end, replaced, true);
    at = span.end;
  });
  add(at, text.length, rest(text.slice(at)), false);
  return { text: out, pieces };
}

/** A position of the engine's text on the request's text (`side`: a start or an end of a range). */
function toRequest(spliced: SplicedText, position: number, side: 'start' | 'end'): number {
  for (const piece of spliced.pieces) {
    const inside =
      side === 'start'
        ? position >= piece.engineFrom && position < piece.engineTo
        : position > piece.engineFrom && position <= piece.engineTo;
    if (!inside) continue;
    if (piece.span) return side === 'start' ? piece.from : piece.to;
    return Math.min(piece.to, piece.from + (position - piece.engineFrom));
  }
  const last = spliced.pieces.at(-1);
  return position <= 0 ? 0 : (last?.to ?? position);
}

/** A range of the engine's text as the range of the request's text it stands for. */
export function toRequestRange(
  spliced: SplicedText,
  start: number,
  end: number,
): { start: number; end: number } {
  const from = toRequest(spliced, start, 'start');
  return { start: from, end: Math.max(from, toRequest(spliced, Math.max(end, start + 1), 'end')) };
}

/** Word times on the engine's text, moved onto the request's text (words inside one span merged). */
export function wordsOnRequest(spliced: SplicedText, words: readonly WordTiming[]): WordTiming[] {
  const out: WordTiming[] = [];
  for (const word of words) {
    const range = toRequestRange(spliced, word.start, word.end);
    const previous = out.at(-1);
    if (previous && range.start < previous.end) {
      previous.end = Math.max(previous.end, range.end);
      previous.endMs = Math.max(previous.endMs, word.endMs);
    } else out.push({ ...word, ...range });
  }
  return out;
}

/** Consonant–vowel syllables: placeholder words flite and Festival read as words (not spelled out). */
const ONSETS = 'bdfgkmnpt';
const NUCLEI = 'aeiou';

/**
 * Unique made-up words, one per span, that stand for the spans in flite's and Festival's text: their
 * lexicons are looked up case-insensitively, so a case-sensitive rule is only exact if the engine sees
 * just the matched occurrences (research-30 §1). Pronounceable (`parlaba`, `parlabe`…): flite spells out
 * a word it finds unpronounceable (`zqxparlab`) without looking it up. None occurs in the text.
 */
export function placeholderWords(text: string, count: number): string[] {
  const lower = text.toLowerCase();
  const words: string[] = [];
  for (let n = 0; words.length < count; n += 1) {
    let word = 'parla';
    let k = n;
    do {
      const syllable = k % (ONSETS.length * NUCLEI.length);
      word += `${ONSETS[Math.floor(syllable / NUCLEI.length)]}${NUCLEI[syllable % NUCLEI.length]}`;
      k = Math.floor(k / (ONSETS.length * NUCLEI.length));
    } while (k > 0);
    if (!lower.includes(word)) words.push(word);
  }
  return words;
}
