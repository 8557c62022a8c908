import { cardinal, decimal, ordinal, year } from './number-words';

/**
 * English text normalisation for `apply_text_normalization` (issue 4): numbers, currency, percentages,
 * dates, times, ordinals and common abbreviations become words, so every engine reads them the same way
 * and the timing of the spoken words maps back onto the characters the user wrote.
 */

/** What a v3 audio tag (`[whispers]`, `[pause]`…) does to the speech in its scope. */
export interface AudioTagEffect {
  /** Real silence where the tag stands, in ms. */
  pauseMs?: number;
  /** Gain in dB, after speaker boost; a gain above 0 is soft-limited so the peak stays below −1 dBFS. */
  gainDb?: number;
  /** Multiplies the speaking rate (every engine). */
  rate?: number;
  /** Multiplies the pitch (eSpeak-NG and flite; festival and flite's rms ignore it). */
  pitch?: number;
  /** Multiplies the intonation range (eSpeak-NG and flite). */
  range?: number;
  /** eSpeak-NG voices speak with their whisper variant (`+whisper`, `+whisperf` for female voices). */
  whisper?: boolean;
}

/** `pause`: silence; `delivery`: changes how the words are spoken; `non_verbal`: a sound we cannot make. */
export type AudioTagKind = 'pause' | 'delivery' | 'non_verbal' | 'unknown';

/** A tag as written: its characters [start, end), its name and what it does. */
export interface AudioTag {
  start: number;
  end: number;
  /** The words inside the brackets, lower case, single-spaced. */
  name: string;
  kind: AudioTagKind;
  effect: AudioTagEffect;
}

/** A stretch of the original text and what is spoken for it. */
export interface NormalizedSegment {
  start: number;
  end: number;
  spoken: string;
  /** v3 audio tags read here (audio-tags.ts): the written characters take no time in the alignment. */
  tags?: AudioTag[];
  /**
   * Said as this IPA instead of as written (a pronunciation-dictionary phoneme rule or a `<phoneme>` tag;
   * issue 30): the speech pipeline hands it to the engine as a phoneme span over `spoken`.
   */
  phoneme?: string;
}

export interface NormalizedText {
  text: string;
  segments: NormalizedSegment[];
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTH_PREFIX: Record<string, number> = Object.fromEntries(
  MONTHS.flatMap((name, i) => [
    [name.toLowerCase(), i],
    [name.slice(0, 3).toLowerCase(), i],
  ]),
);
MONTH_PREFIX.sept = 8;

const CURRENCIES: Record<string, [string, string, string, string]> = {
  // symbol: [singular, plural, minor singular, minor plural]
  $: ['dollar', 'dollars', 'cent', 'cents'],
  '£': ['pound', 'pounds', 'penny', 'pence'],
  '€': ['euro', 'euros', 'cent', 'cents'],
  '¥': ['yen', 'yen', 'sen', 'sen'],
};

const ABBREVIATIONS: Record<string, string> = {
  'Mr.': 'Mister',
  'Mrs.': 'Missus',
  'Ms.': 'Miz',
  'Dr.': 'Doctor',
  'Prof.': 'Professor',
  'Sr.': 'Senior',
  'Jr.': 'Junior',
  'St.': 'Street',
  'Ave.': 'Avenue',
  'Rd.': 'Road',
  'Mt.': 'Mount',
  'vs.': 'versus',
  'etc.': 'et cetera',
  'e.g.': 'for example',
  'i.e.': 'that is',
  'approx.': 'approximately',
  'Inc.': 'Incorporated',
  'Ltd.': 'Limited',
  'Co.': 'Company',
  'Corp.': 'Corporation',
  'Dept.': 'Department',
  'Jan.': 'January',
  'Feb.': 'February',
  'Aug.': 'August',
  'Sept.': 'September',
  'Oct.': 'October',
  'Nov.': 'November',
  'Dec.': 'December',
};

const UNITS: Record<string, [string, string]> = {
  km: ['kilometer', 'kilometers'],
  m: ['meter', 'meters'],
  cm: ['centimeter', 'centimeters'],
  mm: ['millimeter', 'millimeters'],
  kg: ['kilogram', 'kilograms'],
  g: ['gram', 'grams'],
  mi: ['mile', 'miles'],
  lb: ['pound', 'pounds'],
  lbs: ['pound', 'pounds'],
  kb: ['kilobyte', 'kilobytes'],
  mb: ['megabyte', 'megabytes'],
  gb: ['gigabyte', 'gigabytes'],
  ms: ['millisecond', 'milliseconds'],
  h: ['hour', 'hours'],
  min: ['minute', 'minutes'],
  s: ['second', 'seconds'],
  '°c': ['degree Celsius', 'degrees Celsius'],
  '°f': ['degree Fahrenheit', 'degrees Fahrenheit'],
};

const num = (text: string) => Number(text.replace(/,/g, ''));
const plainNumber = (text: string) =>
  text.includes('.') ? decimal(text) : cardinal(BigInt(text.replace(/,/g, '')));

function money(symbol: string, amount: string, scale: string | undefined): string {
  const names = CURRENCIES[symbol] as [string, string, string, string];
  const [whole = '0', fraction] = amount.replace(/,/g, '').split('.');
  if (scale) return `${plainNumber(amount)} ${scale} ${names[1]}`;
  const major = BigInt(whole || '0');
  const minor = fraction ? Number(fraction.padEnd(2, '0').slice(0, 2)) : 0;
  const majorWords = `${cardinal(major)} ${major === 1n ? names[0] : names[1]}`;
  if (!minor) return majorWords;
  const minorWords = `${cardinal(minor)} ${minor === 1 ? names[2] : names[3]}`;
  return major === 0n ? minorWords : `${majorWords} and ${minorWords}`;
}

function clock(hours: string, minutes: string, meridiem: string | undefined): string {
  const h = Number(hours);
  const m = Number(minutes);
  const suffix = meridiem ? ` ${meridiem.replace(/\./g, '').toLowerCase().split('').join(' ')}` : '';
  if (m === 0) return `${cardinal(h)}${meridiem ? '' : " o'clock"}${suffix}`;
  return `${cardinal(h)} ${m < 10 ? `oh ${cardinal(m)}` : cardinal(m)}${suffix}`;
}

function date(month: number, day: number, yearText: string | undefined): string {
  const head = `${MONTHS[month]} ${ordinal(day)}`;
  return yearText ? `${head}, ${year(Number(yearText))}` : head;
}

/** The rules, tried in order at each position; the first that matches wins. */
const RULES: { pattern: RegExp; speak: (m: RegExpExecArray) => string | undefined }[] = [
  // ISO date 2024-05-31
  {
    pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/y,
    speak: (m) =>
      validDate(Number(m[2]) - 1, Number(m[3])) ? date(Number(m[2]) - 1, Number(m[3]), m[1]) : undefined,
  },
  // US date 5/31/2024
  {
    pattern: /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/y,
    speak: (m) =>
      validDate(Number(m[1]) - 1, Number(m[2])) ? date(Number(m[1]) - 1, Number(m[2]), m[3]) : undefined,
  },
  // Month day[, year]: "May 31, 2024", "Jan 5"
  {
    pattern:
      /\b(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.? (\d{1,2})(?:st|nd|rd|th)?(?:,? (\d{4}))?\b/y,
    speak: (m) => {
      const month = MONTH_PREFIX[(m[1] ?? '').toLowerCase()];
      return month !== undefined && validDate(month, Number(m[2]))
        ? date(month, Number(m[2]), m[3])
        : undefined;
    },
  },
  // Time 3:30, 10:15 pm, 7:05a.m.
  {
    pattern: /\b([01]?\d|2[0-3]):([0-5]\d)(?:\s?([AaPp](?:\.[Mm]\.?|[Mm])))?(?![\d:])/y,
    speak: (m) => clock(m[1] ?? '0', m[2] ?? '0', m[3]),
  },
  // Currency $5, $5.50, £3, €2.5 million
  {
    pattern: /([$£€¥])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(million|billion|thousand|trillion))?\b/y,
    speak: (m) => money(m[1] ?? '$', `${m[2]}${m[3] ?? ''}`, m[4]),
  },
  // Percent 50%, 3.5%
  { pattern: /(\d+(?:\.\d+)?)\s?%/y, speak: (m) => `${plainNumber(m[1] ?? '0')} percent` },
  // Ordinals 1st, 22nd, 103rd
  { pattern: /\b(\d+)(st|nd|rd|th)\b/y, speak: (m) => ordinal(Number(m[1])) },
  // Units 5 km, 2.5kg
  {
    pattern: /\b(\d+(?:\.\d+)?)\s?(km|cm|mm|kg|mi|lbs|lb|kb|mb|gb|ms|min|°[CcFf]|m|g|h|s)\b/iy,
    speak: (m) => {
      const names = UNITS[(m[2] ?? '').toLowerCase()];
      if (!names) return undefined;
      return `${plainNumber(m[1] ?? '0')} ${num(m[1] ?? '0') === 1 ? names[0] : names[1]}`;
    },
  },
  // Years 1100–2099 read as years
  { pattern: /\b(1[1-9]\d\d|20\d\d)\b(?![.,]\d)/y, speak: (m) => year(Number(m[1])) },
  // Numbers 1,234 / 3.14 / -5
  {
    pattern: /(?<![\w.])(-?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\b/y,
    speak: (m) => `${m[1] ? 'minus ' : ''}${plainNumber(`${m[2]}${m[3] ?? ''}`)}`,
  },
  // No. 5 → number five
  { pattern: /\bNo\.(?=\s?\d)/y, speak: () => 'number' },
];

function validDate(month: number, day: number): boolean {
  return month >= 0 && month < 12 && day >= 1 && day <= 31;
}

const ABBREVIATION_PATTERN = new RegExp(
  `(?<![\\w.])(${Object.keys(ABBREVIATIONS)
    .map((a) => a.replace(/\./g, '\\.'))
    .join('|')})(?=\\s|$|[,;:!?)])`,
  'y',
);

/** Normalises English text into words, keeping for each spoken piece the characters it stands for. */
export function normalizeEnglish(input: string): NormalizedText {
  const segments: NormalizedSegment[] = [];
  let plainStart = 0;
  let i = 0;
  const flushPlain = (upTo: number) => {
    if (upTo > plainStart)
      segments.push({ start: plainStart, end: upTo, spoken: input.slice(plainStart, upTo) });
  };
  while (i < input.length) {
    let matched = false;
    ABBREVIATION_PATTERN.lastIndex = i;
    const abbreviation = ABBREVIATION_PATTERN.exec(input);
    if (abbreviation) {
      flushPlain(i);
      segments.push({
        start: i,
        end: i + abbreviation[0].length,
        spoken: ABBREVIATIONS[abbreviation[1] ?? ''] ?? abbreviation[0],
      });
      i += abbreviation[0].length;
      plainStart = i;
      continue;
    }
    for (const rule of RULES) {
      rule.pattern.lastIndex = i;
      const m = rule.pattern.exec(input);
      if (!m) continue;
      const spoken = rule.speak(m);
      if (spoken === undefined) continue;
      flushPlain(i);
      segments.push({ start: i, end: i + m[0].length, spoken });
      i += m[0].length;
      plainStart = i;
      matched = true;
      break;
    }
    if (!matched) i += 1;
  }
  flushPlain(input.length);
  return { text: segments.map((s) => s.spoken).join(''), segments };
}

/** For text that is not normalised: one segment, spoken as written. */
export function identityNormalization(input: string): NormalizedText {
  return { text: input, segments: input ? [{ start: 0, end: input.length, spoken: input }] : [] };
}

/** The original character range behind a range of the normalised text. */
export function toOriginalRange(
  normalized: NormalizedText,
  start: number,
  end: number,
): { start: number; end: number } {
  let at = 0;
  let first: { start: number; end: number } | undefined;
  let last: { start: number; end: number } | undefined;
  for (const segment of normalized.segments) {
    const from = at;
    const to = at + segment.spoken.length;
    at = to;
    if (to <= start || from >= end) continue;
    const verbatim =
      segment.spoken === normalized.text.slice(from, to) && segment.end - segment.start === to - from;
    const range =
      verbatim && segment.spoken.length === segment.end - segment.start
        ? { start: segment.start + Math.max(0, start - from), end: segment.start + Math.min(to, end) - from }
        : { start: segment.start, end: segment.end };
    first ??= range;
    last = range;
  }
  return first && last ? { start: first.start, end: last.end } : { start: 0, end: 0 };
}

/** A full stop that ends an abbreviation or an initial, not a sentence. */
export const NO_SENTENCE_END =
  /(?:\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|vs|etc|e\.g|i\.e|approx|Inc|Ltd|Co|No|[A-Z])\.)$/;

/**
 * The most text one engine call is given (issue 16 "Bounded engine work"), in weighted characters: every
 * character counts 1, and 2 inside a run of over 20 characters without a space (engines spell such runs
 * letter by letter, about twice the audio a character). Festival's HTS voice, the slowest engine, speaks
 * 150 characters of words in ~0.5 s here and of spelled letters in ~1 s, so no call of any request holds
 * an engine for longer than about a second, and a tenant waiting for an engine waits at most that long.
 */
export const MAX_ENGINE_TEXT = 150;
/** A piece cut from a long sentence keeps at least this many characters, so cuts fall at real clauses. */
const MIN_PIECE = 40;
/** Runs of non-space characters longer than this count double (spelled out). */
const SPELLED_RUN = 20;

/**
 * Sentences of a text as ranges: after . ! ? (and their closing quotes) followed by space, not after Mr.
 * or 3.14. A sentence longer than MAX_ENGINE_TEXT (text without sentence punctuation, or a long list) is
 * cut into pieces within the bound: at the last clause mark (, ; : or a dash) of the stretch that fits,
 * else at its last space, else — one unbroken run of characters — where the bound falls.
 */
export function splitSentences(text: string): { start: number; end: number }[] {
  const sentences: { start: number; end: number }[] = [];
  const weights = characterWeights(text);
  const add = (start: number, end: number) => {
    if (text.slice(start, end).trim())
      sentences.push(...boundedPieces(text, trimRange(text, start, end), weights));
  };
  let start = 0;
  for (const match of text.matchAll(/[.!?…]+["'”’)\]]*(?=\s+|$)/g)) {
    const end = match.index + match[0].length;
    if (NO_SENTENCE_END.test(text.slice(start, end))) continue;
    add(start, end);
    start = end;
  }
  add(start, text.length);
  return sentences;
}

/** The weight of each character of `text` (see MAX_ENGINE_TEXT). */
function characterWeights(text: string): Uint8Array {
  const weights = new Uint8Array(text.length).fill(1);
  for (const run of text.matchAll(new RegExp(`\\S{${SPELLED_RUN + 1},}`, 'g')))
    weights.fill(2, run.index, run.index + run[0].length);
  return weights;
}

/** A sentence's range cut into pieces of at most MAX_ENGINE_TEXT weighted characters. */
function boundedPieces(
  text: string,
  range: { start: number; end: number },
  weights: Uint8Array,
): { start: number; end: number }[] {
  const pieces: { start: number; end: number }[] = [];
  let { start } = range;
  for (;;) {
    // The furthest end that keeps the piece within the bound.
    let limit = start;
    for (let weight = 0; limit < range.end && weight + (weights[limit] ?? 1) <= MAX_ENGINE_TEXT; limit += 1)
      weight += weights[limit] ?? 1;
    if (limit >= range.end) break;
    const cut = cutPoint(text, start, limit);
    const piece = trimRange(text, start, cut);
    if (piece.end > piece.start) pieces.push(piece);
    start = cut;
    while (start < range.end && /\s/.test(text[start] ?? '')) start += 1;
  }
  const last = trimRange(text, start, range.end);
  if (last.end > last.start) pieces.push(last);
  return pieces;
}

/** Where to cut [start, limit): after the last clause mark, else at the last space, else at the limit. */
function cutPoint(text: string, start: number, limit: number): number {
  const window = text.slice(start + MIN_PIECE, limit + 1);
  let clause = -1;
  for (const mark of window.matchAll(/[,;:](?=\s)|\s[-–—](?=\s)/g)) clause = mark.index + mark[0].length;
  if (clause > 0) return start + MIN_PIECE + clause;
  const space = window.search(/\s\S*$/);
  if (space > 0) return start + MIN_PIECE + space;
  // One unbroken run: cut where the bound falls, never between the two halves of a surrogate pair.
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/** The range without the whitespace at its ends. */
export function trimRange(text: string, start: number, end: number): { start: number; end: number } {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s] ?? '')) s += 1;
  while (e > s && /\s/.test(text[e - 1] ?? '')) e -= 1;
  return { start: s, end: e };
}
