import { SPOKEN_LANGUAGES } from '@parla/contracts';

/** One choice of a label: the value the API stores and the words a person reads. */
export interface LabelOption {
  value: string;
  label: string;
}

/** Label values read better as set phrases than word by word. */
const LABEL_PHRASES: Record<string, string> = {
  characters_animation: 'Characters & animation',
  entertainment_tv: 'Entertainment & TV',
};

/** Words of accents that are proper names or adjectives of places, capitalised wherever they stand. */
const PROPER_WORDS = new Set([
  'african',
  'american',
  'australian',
  'brazilian',
  'british',
  'caribbean',
  'castilian',
  'english',
  'european',
  'indian',
  'irish',
  'latin',
  'mandarin',
  'mexican',
  'parisian',
  'scottish',
  'york',
]);

/**
 * A label value in running text: `social_media` → "social media", `latin american` → "Latin American",
 * `characters_animation` → "characters & animation" (names of places keep their capitals).
 */
export function labelWords(value: string): string {
  const phrase = LABEL_PHRASES[value.trim().toLowerCase()];
  if (phrase) return phrase.charAt(0).toLowerCase() + phrase.slice(1);
  return value
    .replace(/[_-]+/g, ' ')
    .trim()
    .split(/\s+/)
    .map((word) =>
      PROPER_WORDS.has(word.toLowerCase()) ? word.charAt(0).toUpperCase() + word.slice(1) : word,
    )
    .join(' ');
}

/**
 * A label value as a person reads it: `middle_aged` → "Middle aged", `latin american` → "Latin American",
 * `new york` → "New York"; `en` stays as given elsewhere.
 */
export function humanizeLabel(value: string): string {
  const words = labelWords(value);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const options = (values: readonly string[]): LabelOption[] =>
  values.map((value) => ({ value, label: humanizeLabel(value) }));

/** Genders the library filters by and clones may be labelled with (the public API's values). */
export const GENDER_OPTIONS = options(['female', 'male', 'neutral']);

/** Ages of the public API's voice labels. */
export const AGE_OPTIONS = options(['young', 'middle_aged', 'old']);

/** Accents the premade voices and voice design name, and the public API's common ones. */
export const ACCENT_OPTIONS = options([
  'american',
  'british',
  'northern english',
  'new york',
  'australian',
  'irish',
  'scottish',
  'indian',
  'caribbean',
  'african',
  'standard',
  'brazilian',
  'european',
  'castilian',
  'latin american',
  'mexican',
  'parisian',
  'mandarin',
]);

/** Use cases of the public API's voice labels. */
export const USE_CASE_OPTIONS = options([
  'narration',
  'audiobook',
  'conversational',
  'informative',
  'news',
  'social_media',
  'characters_animation',
  'entertainment_tv',
  'advertisement',
  'meditation',
]);

/** The languages Parla really speaks (issue 18), by ISO 639-1 code. */
export const LANGUAGE_OPTIONS: LabelOption[] = SPOKEN_LANGUAGES.map((language) => ({
  value: language.language_id,
  label: language.name,
}));

const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });

/**
 * A language code's name ("en" → "English", "de-AT" → "German"): Parla's name for a language it speaks,
 * else the browser's, else the code itself.
 */
export function languageName(code: string | null | undefined): string | undefined {
  if (!code) return undefined;
  const primary = code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const spoken = LANGUAGE_OPTIONS.find((option) => option.value === primary)?.label;
  if (spoken) return spoken;
  try {
    return displayNames.of(primary) ?? code;
  } catch {
    return code;
  }
}

/** The labels a person sets on an own voice; the others (age, use case…) are kept as they are. */
export interface EditableLabels {
  gender: string;
  accent: string;
  language: string;
}

/** The editable labels of a voice, empty where it has none. */
export function readEditableLabels(labels: Readonly<Record<string, string>>): EditableLabels {
  return { gender: labels.gender ?? '', accent: labels.accent ?? '', language: labels.language ?? '' };
}

/**
 * The labels to send: the voice's other labels kept, the three editable ones set when given and dropped
 * when cleared; values are trimmed and accents lower-cased, as the API stores them.
 */
export function buildVoiceLabels(
  editable: EditableLabels,
  others: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const next: Record<string, string> = { ...others };
  const given = {
    gender: editable.gender.trim(),
    accent: editable.accent.trim().toLowerCase(),
    language: editable.language.trim(),
  };
  for (const [key, value] of Object.entries(given)) {
    if (value) next[key] = value;
    else delete next[key];
  }
  return next;
}

/** The labels worth showing on a voice, in a steady order and as people read them. */
export function describeVoiceTraits(labels: Readonly<Record<string, string>>): string[] {
  const traits: string[] = [];
  for (const key of ['gender', 'age', 'accent', 'use_case', 'descriptive'] as const) {
    const value = labels[key]?.trim();
    if (value) traits.push(humanizeLabel(value));
  }
  const language = languageName(labels.language);
  if (language) traits.push(language);
  return traits;
}
