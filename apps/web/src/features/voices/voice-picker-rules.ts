import type { VoiceResponse } from '@parla/contracts';
import { humanizeLabel, type LabelOption, labelWords, languageName } from './voice-labels';

/** The labels the voice picker filters by (issue 18 item 4), in the order it shows them. */
export const VOICE_FILTER_KEYS = ['language', 'accent', 'gender', 'age', 'use_case'] as const;
export type VoiceFilterKey = (typeof VOICE_FILTER_KEYS)[number];

/** What a filter is called on the page. */
export const VOICE_FILTER_NAMES: Record<VoiceFilterKey, string> = {
  language: 'Language',
  accent: 'Accent',
  gender: 'Gender',
  age: 'Age',
  use_case: 'Use case',
};

/** The picker's search words and filters; an empty or absent filter lets every voice through. */
export interface VoiceFilters {
  search: string;
  language: string;
  accent: string;
  gender: string;
  age: string;
  use_case: string;
}

export const NO_VOICE_FILTERS: VoiceFilters = {
  search: '',
  language: '',
  accent: '',
  gender: '',
  age: '',
  use_case: '',
};

/** A voice's label value as the filters compare it: languages by their primary code, all lower-cased. */
function labelValue(voice: Pick<VoiceResponse, 'labels'>, key: VoiceFilterKey): string {
  const value = voice.labels[key]?.trim().toLowerCase() ?? '';
  return key === 'language' ? (value.split(/[-_]/)[0] ?? '') : value;
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * The voices a search and the filters let through: every search word in the name, description or labels
 * (case- and accent-insensitive, the language's name included), and each set filter equal to its label.
 */
export function filterVoiceList(
  voices: readonly VoiceResponse[],
  filters: Partial<VoiceFilters>,
): VoiceResponse[] {
  const words = fold(filters.search ?? '')
    .split(/\s+/)
    .filter(Boolean);
  return voices.filter((voice) => {
    for (const key of VOICE_FILTER_KEYS) {
      const wanted = filters[key];
      if (wanted && labelValue(voice, key) !== wanted.toLowerCase()) return false;
    }
    if (words.length === 0) return true;
    const haystack = fold(
      [
        voice.name,
        voice.description ?? '',
        ...Object.values(voice.labels),
        languageName(voice.labels.language) ?? '',
      ].join(' '),
    );
    return words.every((word) => haystack.includes(word));
  });
}

/** One choice of a filter, with how many of the voices have it. */
export interface FilterChoice extends LabelOption {
  count: number;
}

/** The choices of a filter: the values the voices carry (so no choice finds nothing), by name. */
export function filterChoices(voices: readonly VoiceResponse[], key: VoiceFilterKey): FilterChoice[] {
  const counts = new Map<string, number>();
  for (const voice of voices) {
    const value = labelValue(voice, key);
    if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([value, count]) => ({
      value,
      count,
      label: key === 'language' ? (languageName(value) ?? value) : humanizeLabel(value),
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Whether any filter or search word is set. */
export function hasVoiceFilters(filters: VoiceFilters): boolean {
  return Object.values(filters).some((value) => value.trim() !== '');
}

/** The labels worth showing on a voice in a list, in a steady order, readable. */
export function describeVoiceLabels(labels: Readonly<Record<string, string>>): string[] {
  const order = ['accent', 'gender', 'age', 'use_case', 'descriptive'];
  const described = order
    .map((key) => labels[key])
    .filter((value): value is string => Boolean(value))
    .map(labelWords);
  const language = languageName(labels.language);
  return language ? [language, ...described] : described;
}

/** The voices of a language (its primary code), for the language notice's offer. */
export function voicesOfLanguage(voices: readonly VoiceResponse[], language: string): VoiceResponse[] {
  return filterVoiceList(voices, { language });
}
