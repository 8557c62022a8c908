import { francAll } from 'franc';
import { findSpokenLanguage } from './tts-catalog';

/**
 * Which language a text is written in, offline (issue 18 item 4): franc's trigram profiles, shipped in the
 * package, asked only about the languages Parla speaks and a few widely written ones it does not (so a
 * Korean text is named Korean, not forced onto the nearest spoken language). Imported on its own
 * (`@parla/contracts/language-detection`), not from the package's index: its data is 300 KB, loaded by
 * the pages that detect.
 */

/** ISO 639-3 (franc) → ISO 639-1, for every language franc is asked about. */
const ISO1: Record<string, string> = {
  eng: 'en',
  spa: 'es',
  fra: 'fr',
  deu: 'de',
  ita: 'it',
  por: 'pt',
  pol: 'pl',
  nld: 'nl',
  swe: 'sv',
  dan: 'da',
  fin: 'fi',
  nob: 'no',
  ces: 'cs',
  slk: 'sk',
  hun: 'hu',
  ron: 'ro',
  bul: 'bg',
  hrv: 'hr',
  ell: 'el',
  tur: 'tr',
  rus: 'ru',
  ukr: 'uk',
  hin: 'hi',
  tam: 'ta',
  ind: 'id',
  zlm: 'ms',
  vie: 'vi',
  cmn: 'zh',
  jpn: 'ja',
  arb: 'ar',
  // Written widely, not spoken here: named, so the page can say no voice speaks them.
  kor: 'ko',
  heb: 'he',
  pes: 'fa',
  tha: 'th',
  ben: 'bn',
  urd: 'ur',
  cat: 'ca',
  slv: 'sl',
  // Not Serbian: in Latin script it reads as Croatian, which is spoken here.
  lit: 'lt',
  lvs: 'lv',
  ekk: 'et',
};
const ASKED = Object.keys(ISO1);

/** Fewer letters than this (about five words) say too little to be sure; ideographs carry more each. */
export const MIN_DETECTION_LETTERS = 24;
const MIN_IDEOGRAPHS = 6;

/**
 * How far ahead of the runner-up the best language must score (franc scores the best 1, the others
 * relative to it): closer than this, the text reads as either, e.g. Danish and Norwegian.
 */
const MIN_MARGIN = 0.02;

export interface DetectedLanguage {
  /** ISO 639-1 code, or null when the text is too short or too ambiguous to tell. */
  language: string | null;
  /** Whether Parla speaks the language (it is one of SPOKEN_LANGUAGES). */
  spoken: boolean;
}

const UNKNOWN: DetectedLanguage = { language: null, spoken: false };

/** The language of a text, or `language: null` when it is short or ambiguous. */
export function detectLanguage(text: string): DetectedLanguage {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const ideographs =
    text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0;
  if (letters < MIN_DETECTION_LETTERS && ideographs < MIN_IDEOGRAPHS) return UNKNOWN;
  const [best, second] = francAll(text, { only: ASKED, minLength: 1 });
  if (!best || best[0] === 'und') return UNKNOWN;
  if (second && best[1] - second[1] < MIN_MARGIN) return UNKNOWN;
  const language = ISO1[best[0]] ?? null;
  if (!language) return UNKNOWN;
  return { language, spoken: findSpokenLanguage(language) !== undefined };
}
