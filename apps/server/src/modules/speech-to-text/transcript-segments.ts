/**
 * Cutting a transcript's words into segments: the cues of subtitles and the paragraphs of documents. Every
 * export format (transcript-formats.ts) starts from these segments.
 *
 * A segment ends before a word when the speaker (or the channel) changes, when the silence before the word
 * is longer than `silenceS`, or when the word would take the segment past `maxDurationS` or `maxChars`
 * (for subtitles: past `maxLines` lines of `lineChars` characters). A full segment gives back the words
 * after its last sentence (else its last clause) to the next one, when at least a third of it stays; past
 * half of a limit, a segment ends after a word that closes a sentence. So cues and paragraphs rarely stop
 * mid-sentence. A single word longer than a limit still makes a segment of its own.
 *
 * Times: words without times (a transcript made with `timestamps_granularity: none`, or without words at
 * all) are spread over the audio's duration by their length in characters; with no duration either, every
 * time is 0.
 */

/** The fields of a transcript's word that segmentation reads (the public API's `words[]`, snake_case). */
export interface SegmentableWord {
  text: string;
  start?: number | null;
  end?: number | null;
  type: 'word' | 'spacing' | 'audio_event';
  speaker_id?: string | null;
  channel_index?: number | null;
}

export interface SegmentRules {
  /** A silence longer than this (seconds) between two words starts a new segment. */
  silenceS: number;
  /** Seconds from a segment's first word's start to its last word's end. */
  maxDurationS: number;
  /** Characters of a segment's text (with the prefix `prefixLength` gives). */
  maxChars: number;
  /** Subtitles: a cue must also fit in `maxLines` lines of `lineChars` characters (see `subtitleLines`). */
  lines?: { lineChars: number; maxLines: number };
  /** Characters put before a segment's text by the format (a speaker's name), counted in its limits. */
  prefixLength?: (speakerId: string | undefined) => number;
}

export interface Segment<W extends SegmentableWord = SegmentableWord> {
  /** The words' text, joined as the transcript spaced them, audio events as "(laughter)". */
  text: string;
  start: number;
  end: number;
  speakerId?: string;
  channelIndex?: number;
  /** Its words and audio events (spacing left out), with their printed text and filled-in times. */
  words: SegmentWord<W>[];
}

export interface SegmentWord<W extends SegmentableWord = SegmentableWord> {
  /** As printed: clean, an audio event in brackets. */
  text: string;
  start: number;
  end: number;
  type: 'word' | 'audio_event';
  /** The transcript's entry; none for words taken from a transcript's text that had no words. */
  source?: W;
}

/** A word or audio event ready to be placed: clean text, times filled in, whether a space precedes it. */
interface Unit<W> {
  text: string;
  start: number;
  end: number;
  spaceBefore: boolean;
  speakerId?: string;
  channelIndex?: number;
  word?: W;
}

/** C0 and C1 control characters (whitespace aside) and the non-characters XML refuses. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
const UNPRINTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g;
/** A surrogate without its pair: not a character, and a broken byte sequence in UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as the exports print it: no control characters, any run of whitespace one space, trimmed. */
export function cleanText(text: string): string {
  return text.replace(UNPRINTABLE, '').replace(LONE_SURROGATE, '').replace(/\s+/g, ' ').trim();
}

/** An audio event's tag as the text formats print it: "(laughter)", whatever brackets it came with. */
export function eventText(text: string): string {
  const bare = cleanText(text)
    .replace(/^[([{<]+|[)\]}>]+$/g, '')
    .trim();
  return bare ? `(${bare})` : '';
}

const ENDS_SENTENCE = /[.!?…。！？]["'”’)\]]*$/u;

const isTime = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The transcript's words as units: spacing becomes `spaceBefore`, missing times are filled in. */
function toUnits<W extends SegmentableWord>(
  words: readonly W[],
  text: string,
  durationSecs: number,
): Unit<W>[] {
  const units: Unit<W>[] = [];
  const spaced = words.some((word) => word.type === 'spacing');
  let pendingSpace = false;
  let timed = false;
  for (const word of words) {
    if (word.type === 'spacing') {
      pendingSpace = units.length > 0;
      continue;
    }
    const clean = word.type === 'audio_event' ? eventText(word.text) : cleanText(word.text);
    if (!clean) continue;
    const start = isTime(word.start) ? word.start : Number.NaN;
    const end = isTime(word.end) ? word.end : Number.NaN;
    timed ||= isTime(word.start) || isTime(word.end);
    units.push({
      text: clean,
      start,
      end,
      // Without any spacing entries (a transcript not made by us), words are taken as space-separated.
      spaceBefore: units.length > 0 && (spaced ? pendingSpace : true),
      ...(word.speaker_id ? { speakerId: word.speaker_id } : {}),
      ...(typeof word.channel_index === 'number' ? { channelIndex: word.channel_index } : {}),
      word,
    });
    pendingSpace = false;
  }
  if (units.length === 0) {
    for (const token of cleanText(text).split(' ')) {
      if (token)
        units.push({ text: token, start: Number.NaN, end: Number.NaN, spaceBefore: units.length > 0 });
    }
  }
  if (!timed) spreadOver(units, durationSecs);
  let previousEnd = 0;
  for (const unit of units) {
    if (Number.isNaN(unit.start))
      unit.start = Number.isNaN(unit.end) ? previousEnd : Math.min(previousEnd, unit.end);
    if (Number.isNaN(unit.end) || unit.end < unit.start) unit.end = unit.start;
    previousEnd = unit.end;
  }
  return units;
}

/** Untimed units share the audio's duration in proportion to their length. */
function spreadOver<W>(units: Unit<W>[], durationSecs: number): void {
  const total = units.reduce((sum, unit) => sum + unit.text.length + 1, 0);
  const duration = isTime(durationSecs) ? durationSecs : 0;
  let at = 0;
  for (const unit of units) {
    const length = total > 0 ? (duration * (unit.text.length + 1)) / total : 0;
    unit.start = at;
    unit.end = at + length;
    at += length;
  }
}

/**
 * Lines for a subtitle cue of at most `lineChars` characters each: one line when it fits, else two lines
 * as even as the words allow (the usual subtitle shape), else as many greedy lines as it takes. A word
 * longer than a line stays whole on a line of its own.
 */
export function subtitleLines(text: string, lineChars: number, maxLines = 2): string[] {
  if (text.length <= lineChars) return text ? [text] : [];
  if (maxLines >= 2) {
    let best: [string, string] | undefined;
    for (let at = text.indexOf(' '); at > 0; at = text.indexOf(' ', at + 1)) {
      const pair: [string, string] = [text.slice(0, at), text.slice(at + 1)];
      if (pair[0].length > lineChars || pair[1].length > lineChars) continue;
      if (
        !best ||
        Math.max(...pair.map((line) => line.length)) < Math.max(...best.map((line) => line.length))
      ) {
        best = pair;
      }
    }
    if (best) return best;
  }
  return wrapText(text, lineChars);
}

/** Greedy word wrap at `width` characters; a word longer than a line stays whole on a line of its own. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (!word) continue;
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

const ENDS_CLAUSE = /[,;:—–]["'”’)\]]*$/u;

/** The units' text, spaced as the transcript spaced them. */
const joinUnits = <W>(units: readonly Unit<W>[]) =>
  units.map((unit, index) => (index > 0 && unit.spaceBefore ? ` ${unit.text}` : unit.text)).join('');

/**
 * Where to end a segment that is full: after its last sentence, else after its last clause, if that
 * leaves at least a third of it; the words after are carried into the next segment.
 */
function cutPoint<W>(units: readonly Unit<W>[]): number | undefined {
  const from = Math.max(1, Math.ceil(units.length / 3));
  for (const pattern of [ENDS_SENTENCE, ENDS_CLAUSE]) {
    for (let index = units.length - 1; index >= from; index -= 1) {
      if (pattern.test((units[index - 1] as Unit<W>).text)) return index;
    }
  }
  return undefined;
}

/** Cuts the words into segments by the rules (see the file's header). */
export function segmentWords<W extends SegmentableWord>(
  words: readonly W[],
  rules: SegmentRules,
  options: { text?: string; durationSecs?: number } = {},
): Segment<W>[] {
  const segments: Segment<W>[] = [];
  // The segment being filled, its text kept as it grows (a long segment is not joined again per word).
  let units: Unit<W>[] = [];
  let text = '';
  let speaker: string | undefined;
  let channel: number | undefined;

  const speakerOf = (list: readonly Unit<W>[]) =>
    list.find((unit) => unit.speakerId !== undefined)?.speakerId;
  const channelOf = (list: readonly Unit<W>[]) =>
    list.find((unit) => unit.channelIndex !== undefined)?.channelIndex;

  const fits = (start: number, end: number, speakerId: string | undefined, joined: string) => {
    if (end - start > rules.maxDurationS) return false;
    const prefix = rules.prefixLength?.(speakerId) ?? 0;
    if (prefix + joined.length > rules.maxChars) return false;
    if (!rules.lines) return true;
    const { lineChars, maxLines } = rules.lines;
    const lines = subtitleLines(`${'x'.repeat(prefix)}${joined}`, lineChars, maxLines);
    return lines.length <= maxLines && lines.every((line) => line.length <= lineChars);
  };

  const emit = (list: readonly Unit<W>[], joined: string) => {
    if (list.length === 0) return;
    const first = list[0] as Unit<W>;
    const speakerId = speakerOf(list);
    const channelIndex = channelOf(list);
    segments.push({
      text: joined,
      start: first.start,
      end: list.reduce((end, unit) => Math.max(end, unit.end), first.start),
      ...(speakerId !== undefined ? { speakerId } : {}),
      ...(channelIndex !== undefined ? { channelIndex } : {}),
      words: list.map((unit) => ({
        text: unit.text,
        start: unit.start,
        end: unit.end,
        type: unit.word?.type === 'audio_event' ? 'audio_event' : 'word',
        ...(unit.word ? { source: unit.word } : {}),
      })),
    });
  };

  const append = (joined: string, unit: Unit<W>) =>
    joined ? `${joined}${unit.spaceBefore ? ' ' : ''}${unit.text}` : unit.text;

  for (const unit of toUnits(words, options.text ?? '', options.durationSecs ?? 0)) {
    const first = units[0];
    const previous = units.at(-1);
    if (first && previous) {
      // A unit without a speaker (an audio event) joins whoever is speaking.
      const hardBreak =
        (unit.speakerId !== undefined && speaker !== undefined && unit.speakerId !== speaker) ||
        (unit.channelIndex !== undefined && channel !== undefined && unit.channelIndex !== channel) ||
        unit.start - previous.end > rules.silenceS;
      if (hardBreak) {
        emit(units, text);
        units = [];
        text = '';
        speaker = undefined;
        channel = undefined;
      } else if (!fits(first.start, unit.end, speaker ?? unit.speakerId, append(text, unit))) {
        const cut = cutPoint(units);
        const carried = cut === undefined ? [] : units.slice(cut);
        const carriedText = joinUnits(carried);
        const carriedFirst = carried[0];
        if (
          cut !== undefined &&
          carriedFirst &&
          fits(carriedFirst.start, unit.end, speaker ?? unit.speakerId, append(carriedText, unit))
        ) {
          emit(units.slice(0, cut), joinUnits(units.slice(0, cut)));
          units = carried;
          text = carriedText;
          speaker = speakerOf(carried);
          channel = channelOf(carried);
        } else {
          emit(units, text);
          units = [];
          text = '';
          speaker = undefined;
          channel = undefined;
        }
      }
    }
    units.push(unit);
    text = append(text, unit);
    speaker ??= unit.speakerId;
    channel ??= unit.channelIndex;
    // Past half of a limit, a segment ends with its sentence.
    const start = (units[0] as Unit<W>).start;
    const charLimit = rules.lines
      ? Math.min(rules.maxChars, rules.lines.lineChars * rules.lines.maxLines)
      : rules.maxChars;
    if (
      ENDS_SENTENCE.test(unit.text) &&
      (text.length >= charLimit / 2 || unit.end - start >= rules.maxDurationS / 2)
    ) {
      emit(units, text);
      units = [];
      text = '';
      speaker = undefined;
      channel = undefined;
    }
  }
  emit(units, text);
  return segments;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `HH:MM:SS,mmm` (SRT, `separator` ',') or `HH:MM:SS.mmm` (WebVTT, '.'); hours grow past 99 if need be. */
export function clockTime(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round((Number.isFinite(seconds) && seconds > 0 ? seconds : 0) * 1000);
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const secs = Math.floor(ms / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}${separator}${pad(ms % 1000, 3)}`;
}

/** `HH:MM:SS`, the whole second a segment starts in (the prefixes of txt, html, docx and pdf). */
export function shortTime(seconds: number): string {
  return clockTime(Math.floor(Number.isFinite(seconds) && seconds > 0 ? seconds : 0), '.').slice(0, -4);
}
