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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A letter, digit or combining mark: what a word is made of, for word boundaries. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/**
 * Patterns by rule object: a streamed request (the TTS socket) normalises its text again and again with the
 * same rules. matchAll copies a pattern, so sharing one is safe.
 */
const patterns = new WeakMap<PronunciationRule, RegExp>();

/**
 * The pattern of one rule: its string as written, case-insensitive unless `case_sensitive` (the public
 * API's rule models leave both flags optional and say no default; a dictionary entry is meant to match
 * "UN" and "un" alike unless asked, so false), and with `word_boundaries` (default true) not inside a
 * longer word — checked only at an end of the string that is itself a word character ("C++" may be
 * followed by anything).
 */
function rulePattern(rule: PronunciationRule): RegExp {
  const known = patterns.get(rule);
  if (known) return known;
  const target = rule.string_to_replace;
  const bounded = rule.word_boundaries ?? true;
  const before = bounded && WORD_CHAR.test(target[0] ?? '') ? '(?<![\\p{L}\\p{N}\\p{M}])' : '';
  const after = bounded && WORD_CHAR.test(target.at(-1) ?? '') ? '(?![\\p{L}\\p{N}\\p{M}])' : '';
  const pattern = new RegExp(`${before}${escapeRegExp(target)}${after}`, rule.case_sensitive ? 'gu' : 'giu');
  patterns.set(rule, pattern);
  return pattern;
}

/**
 * The matches of the rules in a text, in text order and never overlapping: every rule's occurrences are
 * found; from left to right the longest match at a position is taken, and of matches of the same span the
 * rule named first wins (the request's dictionaries in their order, each dictionary's rules in theirs).
 */
export function matchRules(text: string, rules: readonly PronunciationRule[]): RuleMatch[] {
  const candidates: (RuleMatch & { order: number })[] = [];
  rules.forEach((rule, order) => {
    if (!rule.string_to_replace) return;
    for (const match of text.matchAll(rulePattern(rule)))
      if (match[0].length > 0)
        candidates.push({ start: match.index, end: match.index + match[0].length, rule, order });
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
