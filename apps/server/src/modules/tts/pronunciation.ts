import { MAX_ENGINE_TEXT, type NormalizedSegment, type NormalizedText } from '@parla/audio';
import type { PronunciationRule } from '@parla/contracts';
import { type PhonemeSpan, pronunciationIpa } from '../../providers/tts/tts-provider';

/*
 * Pronunciation-dictionary rules applied to a request's text (issue 30 item 1, decision 25 "Pronunciation
 * rules in the engines"): an alias rule says its words instead of the matched ones, and is applied before
 * text normalisation ("UN" → "United Nations" is what gets normalised and spoken); a phoneme rule leaves
 * the words in the text and marks them as a segment with an IPA pronunciation, which reaches the engine
 * as an `EngineSynthesisRequest.phonemes` span. Each rule becomes a segment of the NormalizedText, so the
 * alignment of the text as written still maps onto the original characters (originalTimes).
 */

/** Where a rule matched the text: [start, end) in UTF-16 units, and the rule. */
export interface RuleMatch {
  start: number;
  end: number;
  rule: PronunciationRule;
}

/** A letter, digit or combining mark: what a word is made of, for word boundaries. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const isWordChar = (codePoint: number | undefined) =>
  codePoint !== undefined && WORD_CHAR.test(String.fromCodePoint(codePoint));

/** The code point that ends just before `index` (a surrogate pair read whole). */
function codePointBefore(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2);
  }
  return low;
}

/**
 * Where one rule's string stands in the text: as written, case-insensitively unless `case_sensitive` (the
 * public API's rule models leave both flags optional and say no default; a dictionary entry is meant to
 * match "UN" and "un" alike unless asked, so false), and with `word_boundaries` (default true) not inside
 * a longer word — checked only at an end of the string that is itself a word character ("C++" may be
 * followed by anything). A literal search (indexOf) in the text, or in its lower case when the lower case
 * keeps every character's place; a review measured the earlier regular expression per rule (a Unicode
 * lookbehind tried at every position, compiled again for every request's fresh rule objects) at 1.2 s for
 * 1,000 rules on 10,000 characters, on the event loop.
 */
function* occurrences(
  text: string,
  lower: string | undefined,
  rule: PronunciationRule,
): Generator<{ start: number; end: number }> {
  const target = rule.string_to_replace;
  const bounded = rule.word_boundaries ?? true;
  const checkBefore = bounded && isWordChar(target.codePointAt(0));
  const checkAfter = bounded && isWordChar(codePointBefore(target, target.length));
  let haystack = text;
  let needle = target;
  if (!rule.case_sensitive) {
    const lowered = target.toLowerCase();
    if (lower === undefined || lowered.length !== target.length) {
      // A text or string whose lower case moves characters (e.g. "İ" is two in lower case): the regular
      // expression's case folding, with the same boundary checks after it.
      const pattern = new RegExp(target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
      for (const match of text.matchAll(pattern)) {
        const start = match.index;
        const end = start + match[0].length;
        if (checkBefore && isWordChar(codePointBefore(text, start))) continue;
        if (checkAfter && isWordChar(text.codePointAt(end))) continue;
        yield { start, end };
      }
      return;
    }
    haystack = lower;
    needle = lowered;
  }
  let at = haystack.indexOf(needle);
  while (at >= 0) {
    const end = at + needle.length;
    const ok =
      !(checkBefore && isWordChar(codePointBefore(text, at))) &&
      !(checkAfter && isWordChar(text.codePointAt(end)));
    if (ok) yield { start: at, end };
    at = haystack.indexOf(needle, ok ? end : at + 1);
  }
}

/**
 * The matches of the rules in a text, in text order and never overlapping: every rule's occurrences are
 * found; from left to right the longest match at a position is taken, and of matches of the same span the
 * rule named first wins (the request's dictionaries in their order, each dictionary's rules in theirs).
 */
export function matchRules(text: string, rules: readonly PronunciationRule[]): RuleMatch[] {
  const lowered = text.toLowerCase();
  const lower = lowered.length === text.length ? lowered : undefined;
  const candidates: (RuleMatch & { order: number })[] = [];
  rules.forEach((rule, order) => {
    if (!rule.string_to_replace) return;
    for (const { start, end } of occurrences(text, lower, rule)) candidates.push({ start, end, rule, order });
  });
  candidates.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start) || a.order - b.order);
  const chosen: RuleMatch[] = [];
  let at = 0;
  for (const candidate of candidates) {
    if (candidate.start < at) continue;
    chosen.push({ start: candidate.start, end: candidate.end, rule: candidate.rule });
    at = candidate.end;
  }
  return chosen;
}

/** A phoneme rule's pronunciation as IPA; undefined when it cannot be read (its words are said as written). */
function ruleIpa(rule: Extract<PronunciationRule, { type: 'phoneme' }>): string | undefined {
  try {
    const ipa = pronunciationIpa(rule.phoneme, rule.alphabet);
    return ipa.trim() ? ipa : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A text with the rules applied, as segments of the text as written: an alias match is spoken as its
 * alias (normalised like the rest), a phoneme match as written (normalised) with its IPA on the segment,
 * and the text between matches goes through `normalizeRest`.
 */
export function applyPronunciation(
  text: string,
  rules: readonly PronunciationRule[] | undefined,
  normalizeRest: (piece: string) => NormalizedText,
): NormalizedText {
  const matches = rules && rules.length > 0 ? matchRules(text, rules) : [];
  if (matches.length === 0) return normalizeRest(text);
  const segments: NormalizedSegment[] = [];
  let at = 0;
  const addText = (end: number) => {
    if (end <= at) return;
    for (const segment of normalizeRest(text.slice(at, end)).segments)
      segments.push({ ...segment, start: segment.start + at, end: segment.end + at });
  };
  for (const match of matches) {
    addText(match.start);
    const { rule } = match;
    if (rule.type === 'alias') {
      segments.push({ start: match.start, end: match.end, spoken: normalizeRest(rule.alias).text });
    } else {
      const spoken = normalizeRest(text.slice(match.start, match.end)).text;
      const ipa = ruleIpa(rule);
      segments.push({ start: match.start, end: match.end, spoken, ...(ipa ? { phoneme: ipa } : {}) });
    }
    at = match.end;
  }
  addText(text.length);
  return { text: segments.map((s) => s.spoken).join(''), segments };
}

/**
 * The phoneme spans of a normalised text, in its own offsets: its segments with a pronunciation (phoneme
 * rules and `<phoneme>` tags), without the whitespace at their ends.
 */
export function phonemeSpansOf(normalized: NormalizedText): PhonemeSpan[] {
  const spans: PhonemeSpan[] = [];
  let at = 0;
  for (const segment of normalized.segments) {
    const spoken = segment.spoken;
    if (segment.phoneme && spoken.trim()) {
      const lead = spoken.length - spoken.trimStart().length;
      const trail = spoken.length - spoken.trimEnd().length;
      spans.push({ start: at + lead, end: at + spoken.length - trail, ipa: segment.phoneme });
    }
    at += spoken.length;
  }
  return spans;
}

/**
 * The spans inside one engine call's stretch [start, end) of the normalised text, in that call's offsets.
 * A span the sentence splitting cut through is left out: its words are said as written. An engine call's
 * work is bounded by its text (MAX_ENGINE_TEXT, issue 16), but a rule may say one letter as 400 symbols:
 * the spans' IPA in one call is at most twice the call's text (at least MAX_ENGINE_TEXT symbols), and the
 * spans past that are said as written — far above what real words need (`tomato`: 9 symbols for 6 letters).
 */
export function spansWithin(spans: readonly PhonemeSpan[], start: number, end: number): PhonemeSpan[] {
  let budget = Math.max(MAX_ENGINE_TEXT, 2 * (end - start));
  const within: PhonemeSpan[] = [];
  for (const span of spans) {
    if (span.start < start || span.end > end) continue;
    budget -= span.ipa.length;
    if (budget < 0) break;
    within.push({ start: span.start - start, end: span.end - start, ipa: span.ipa });
  }
  return within;
}
