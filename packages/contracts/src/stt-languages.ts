/**
 * The speech-to-text language list (history/voices §9: "auto Detect plus about 57 languages"): the 57
 * languages OpenAI lists for Whisper, which an operator's OpenAI-compatible transcription server
 * (STT_SERVER_URL) typically serves. The built-in model transcribes English only (`builtIn`).
 * `code` is ISO 639-3 as the public API answers (`language_code: "eng"`); `iso1` the two-letter code.
 */
export interface SttLanguage {
  code: string;
  iso1: string;
  name: string;
  /** The built-in model transcribes it (no server needed). */
  builtIn: boolean;
}

const LIST: [string, string, string][] = [
  ['afr', 'af', 'Afrikaans'],
  ['ara', 'ar', 'Arabic'],
  ['hye', 'hy', 'Armenian'],
  ['aze', 'az', 'Azerbaijani'],
  ['bel', 'be', 'Belarusian'],
  ['bos', 'bs', 'Bosnian'],
  ['bul', 'bg', 'Bulgarian'],
  ['cat', 'ca', 'Catalan'],
  ['zho', 'zh', 'Chinese'],
  ['hrv', 'hr', 'Croatian'],
  ['ces', 'cs', 'Czech'],
  ['dan', 'da', 'Danish'],
  ['nld', 'nl', 'Dutch'],
  ['eng', 'en', 'English'],
  ['est', 'et', 'Estonian'],
  ['fin', 'fi', 'Finnish'],
  ['fra', 'fr', 'French'],
  ['glg', 'gl', 'Galician'],
  ['deu', 'de', 'German'],
  ['ell', 'el', 'Greek'],
  ['heb', 'he', 'Hebrew'],
  ['hin', 'hi', 'Hindi'],
  ['hun', 'hu', 'Hungarian'],
  ['isl', 'is', 'Icelandic'],
  ['ind', 'id', 'Indonesian'],
  ['ita', 'it', 'Italian'],
  ['jpn', 'ja', 'Japanese'],
  ['kan', 'kn', 'Kannada'],
  ['kaz', 'kk', 'Kazakh'],
  ['kor', 'ko', 'Korean'],
  ['lav', 'lv', 'Latvian'],
  ['lit', 'lt', 'Lithuanian'],
  ['mkd', 'mk', 'Macedonian'],
  ['msa', 'ms', 'Malay'],
  ['mar', 'mr', 'Marathi'],
  ['mri', 'mi', 'Maori'],
  ['nep', 'ne', 'Nepali'],
  ['nor', 'no', 'Norwegian'],
  ['fas', 'fa', 'Persian'],
  ['pol', 'pl', 'Polish'],
  ['por', 'pt', 'Portuguese'],
  ['ron', 'ro', 'Romanian'],
  ['rus', 'ru', 'Russian'],
  ['srp', 'sr', 'Serbian'],
  ['slk', 'sk', 'Slovak'],
  ['slv', 'sl', 'Slovenian'],
  ['spa', 'es', 'Spanish'],
  ['swa', 'sw', 'Swahili'],
  ['swe', 'sv', 'Swedish'],
  ['tgl', 'tl', 'Tagalog'],
  ['tam', 'ta', 'Tamil'],
  ['tha', 'th', 'Thai'],
  ['tur', 'tr', 'Turkish'],
  ['ukr', 'uk', 'Ukrainian'],
  ['urd', 'ur', 'Urdu'],
  ['vie', 'vi', 'Vietnamese'],
  ['cym', 'cy', 'Welsh'],
];

export const STT_LANGUAGES: readonly SttLanguage[] = LIST.map(([code, iso1, name]) => ({
  code,
  iso1,
  name,
  builtIn: code === 'eng',
}));

/**
 * A language as a request or a server names it — ISO 639-1 ("en"), 639-3 ("eng"), or an English name
 * ("english", as Whisper servers answer) — to its entry; undefined when it is not in the list.
 */
export function findSttLanguage(value: string | null | undefined): SttLanguage | undefined {
  if (!value) return undefined;
  const key = value.trim().toLowerCase();
  return STT_LANGUAGES.find((l) => l.code === key || l.iso1 === key || l.name.toLowerCase() === key);
}
