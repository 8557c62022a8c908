import type { AudioTag, NormalizedSegment, NormalizedText } from '@parla/audio';
import { ARPABET_PHONES, IPA_PRONUNCIATION } from '@parla/contracts';
import { pronunciationIpa } from '../../providers/tts/tts-provider';

/*
 * The SSML-like tags of the public API's text (issue 16 "cap and validate phoneme and SSML-like input"):
 * `<break time="1.5s" />` and `<phoneme alphabet="ipa|cmu-arpabet" ph="…">word</phoneme>`. They are read
 * and checked here, before any credit is spent, and never reach an engine as markup (flite loops on SSML;
 * festival and eSpeak would read the brackets aloud):
 *   - a break is real silence where it stands (at most 3 s, as the public API allows);
 *   - a phoneme tag's `ph` is checked (alphabet, symbols, length) and its word is said as that
 *     pronunciation: the word becomes a segment with the IPA (ARPAbet converted, phoneme-alphabets.ts),
 *     which reaches the engine as a phoneme span, as a pronunciation-dictionary phoneme rule does (issue
 *     30). Every embedded engine takes it through its own phoneme input; the external engine has none and
 *     says the word as written — docs/areas/speech.md.
 * Anything else in angle brackets is text, as before.
 */

/** The longest break, as the public API allows (`<break time="3s" />`). */
export const MAX_BREAK_MS = 3000;
/** The longest `ph` of a phoneme tag: a pronunciation of one word or a short phrase. */
export const MAX_PHONEME_CHARS = 100;
/** The longest text inside a phoneme tag: a word or a short phrase. */
export const MAX_PHONEME_WORD_CHARS = 50;
/**
 * The most break tags in one text: each one between words cuts its sentence into another engine call, and
 * adds up to 3 s of silence (50 breaks: at most 2.5 minutes of it).
 */
export const MAX_BREAKS = 50;

/** A tag's problem, for a 422 on the text field. */
export class MarkupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarkupError';
  }
}

/** A tag as written: [start, end) of the whole construct, and what it does. */
export type MarkupTag =
  | { kind: 'break'; start: number; end: number; pauseMs: number }
  | {
      kind: 'phoneme';
      start: number;
      end: number;
      word: { start: number; end: number };
      /** The tag's pronunciation as IPA (an ARPAbet `ph` converted). */
      ipa: string;
    };

/** Any `<break` / `<phoneme` / `</phoneme` opening, well formed or not (`<break-even>` is text). */
const TAG_START = /<\s*(\/?)\s*(break|phoneme)(?=[\s/<>]|$)/gi;

/** The attributes of a tag's inside (`name="value"` or `name='value'`); anything else is a problem. */
function attributes(inside: string, tag: string): Map<string, string> {
  const found = new Map<string, string>();
  const rest = inside
    .replace(/([a-zA-Z_:-]+)\s*=\s*("([^"]*)"|'([^']*)')/g, (_, name: string, _q, double, single) => {
      if (found.has(name.toLowerCase())) throw new MarkupError(`The <${tag}> tag names ${name} twice.`);
      found.set(name.toLowerCase(), (double ?? single) as string);
      return ' ';
    })
    .replace(/\/\s*$/, '');
  if (rest.trim())
    throw new MarkupError(
      `The <${tag}> tag has something that is not an attribute: "${rest.trim().slice(0, 40)}".`,
    );
  return found;
}

/** `1.5s`, `500ms` → milliseconds. */
function breakTime(value: string | undefined): number {
  const match = value?.trim().match(/^(\d+(?:\.\d+)?)\s*(s|ms)$/i);
  if (!match) throw new MarkupError('A <break> needs a time such as time="1.5s" or time="500ms".');
  const ms = Number(match[1]) * ((match[2] as string).toLowerCase() === 's' ? 1000 : 1);
  if (ms > MAX_BREAK_MS) throw new MarkupError(`A <break> is at most ${MAX_BREAK_MS / 1000} seconds long.`);
  return Math.round(ms);
}

/** Checks a phoneme tag's alphabet and pronunciation. */
function checkPronunciation(alphabet: string | undefined, ph: string | undefined): void {
  if (alphabet === undefined)
    throw new MarkupError('A <phoneme> tag needs alphabet="ipa" or alphabet="cmu-arpabet".');
  if (ph === undefined || !ph.trim())
    throw new MarkupError('A <phoneme> tag needs a pronunciation in ph="…".');
  if (ph.length > MAX_PHONEME_CHARS)
    throw new MarkupError(
      `A <phoneme> pronunciation is at most ${MAX_PHONEME_CHARS} characters long; this one has ${ph.length}.`,
    );
  const name = alphabet.toLowerCase();
  if (name === 'cmu-arpabet') {
    const wrong = ph
      .trim()
      .split(/\s+/)
      .find((phone) => !ARPABET_PHONES.has(phone.toUpperCase().replace(/[012]$/, '')));
    if (wrong !== undefined) throw new MarkupError(`"${wrong.slice(0, 10)}" is not a CMU ARPAbet phone.`);
  } else if (name === 'ipa') {
    if (!IPA_PRONUNCIATION.test(ph.normalize('NFD')))
      throw new MarkupError('The <phoneme> pronunciation has characters that are not IPA.');
  } else {
    throw new MarkupError(
      `The phoneme alphabet "${alphabet.slice(0, 20)}" is not supported: use "ipa" or "cmu-arpabet".`,
    );
  }
}

/**
 * Every break and phoneme tag of a text, checked: well formed, attributes valid, phoneme tags closed and
 * not nested, their words short. Throws MarkupError with a sentence for the user.
 */
export function findMarkup(text: string): MarkupTag[] {
  const tags: MarkupTag[] = [];
  let open: { start: number; contentStart: number; ipa: string } | undefined;
  for (const match of text.matchAll(TAG_START)) {
    const start = match.index;
    const closing = match[1] === '/';
    const name = (match[2] as string).toLowerCase();
    const close = text.indexOf('>', start);
    const nextOpen = text.indexOf('<', start + 1);
    if (close === -1 || (nextOpen !== -1 && nextOpen < close))
      throw new MarkupError(`A <${name}> tag is not closed with ">".`);
    const inside = text.slice(start + match[0].length, close);
    if (name === 'break') {
      if (closing) throw new MarkupError('</break> closes nothing: write <break time="1s" />.');
      const time = attributes(inside, 'break');
      const unknown = [...time.keys()].find((key) => key !== 'time');
      if (unknown) throw new MarkupError(`A <break> takes only a time, not ${unknown}.`);
      if (open) throw new MarkupError('A <break> cannot stand inside a <phoneme> tag.');
      tags.push({ kind: 'break', start, end: close + 1, pauseMs: breakTime(time.get('time')) });
      if (tags.filter((tag) => tag.kind === 'break').length > MAX_BREAKS)
        throw new MarkupError(`A text may hold at most ${MAX_BREAKS} <break> tags.`);
    } else if (closing) {
      if (!open) throw new MarkupError('A </phoneme> closes no <phoneme> tag.');
      if (inside.trim()) throw new MarkupError('A </phoneme> takes no attributes.');
      const word = { start: open.contentStart, end: start };
      const spoken = text.slice(word.start, word.end);
      if (!spoken.trim()) throw new MarkupError('A <phoneme> tag needs the word it pronounces inside it.');
      if (spoken.length > MAX_PHONEME_WORD_CHARS)
        throw new MarkupError(
          `The text inside a <phoneme> tag is at most ${MAX_PHONEME_WORD_CHARS} characters long.`,
        );
      tags.push({ kind: 'phoneme', start: open.start, end: close + 1, word, ipa: open.ipa });
      open = undefined;
    } else {
      if (open) throw new MarkupError('A <phoneme> tag cannot stand inside another.');
      if (/\/\s*$/.test(inside))
        throw new MarkupError('A <phoneme> tag needs its word inside it: <phoneme …>word</phoneme>.');
      const found = attributes(inside, 'phoneme');
      const unknown = [...found.keys()].find((key) => key !== 'alphabet' && key !== 'ph');
      if (unknown) throw new MarkupError(`A <phoneme> tag takes alphabet and ph, not ${unknown}.`);
      const alphabet = found.get('alphabet');
      const ph = found.get('ph');
      checkPronunciation(alphabet, ph);
      open = { start, contentStart: close + 1, ipa: pronunciationIpa(ph as string, alphabet as string) };
    }
  }
  if (open) throw new MarkupError('A <phoneme> tag is not closed with </phoneme>.');
  return tags;
}

/**
 * The spoken text of a request with its break and phoneme tags read: a break becomes a pause segment (one
 * space between two words, else nothing), a phoneme tag its word with the tag's IPA; the text between them goes through
 * `normalizeRest` (audio tags, English normalisation). Markup must have been checked (findMarkup).
 */
export function normalizeMarkup(
  text: string,
  normalizeRest: (piece: string) => NormalizedText,
): NormalizedText {
  const tags = findMarkup(text);
  if (tags.length === 0) return normalizeRest(text);
  const segments: NormalizedSegment[] = [];
  let at = 0;
  const addText = (end: number) => {
    if (end <= at) return;
    for (const segment of normalizeRest(text.slice(at, end)).segments)
      segments.push({ ...segment, start: segment.start + at, end: segment.end + at });
  };
  for (const tag of tags) {
    addText(tag.start);
    if (tag.kind === 'phoneme') {
      // The word is read as the text around it is (numbers in words, audio tags of v3 models…).
      const spoken = normalizeRest(text.slice(tag.word.start, tag.word.end)).text;
      segments.push({
        start: tag.start,
        end: tag.end,
        spoken,
        ...(tag.ipa.trim() ? { phoneme: tag.ipa } : {}),
      });
    } else {
      const between = /\S/.test(text[tag.start - 1] ?? ' ') && /\S/.test(text[tag.end] ?? ' ');
      const pause: AudioTag = {
        start: tag.start,
        end: tag.end,
        name: 'break',
        kind: 'pause',
        effect: { pauseMs: tag.pauseMs },
      };
      segments.push({ start: tag.start, end: tag.end, spoken: between ? ' ' : '', tags: [pause] });
    }
    at = tag.end;
  }
  addText(text.length);
  return { text: segments.map((s) => s.spoken).join(''), segments };
}
