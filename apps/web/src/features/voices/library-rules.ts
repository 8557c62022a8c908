import type { LibraryLanguage, SharedVoicesQuery, VoiceAccent } from '@parla/contracts';
import type { z } from 'zod';
import { humanizeLabel, type LabelOption, languageName } from './voice-labels';

/** How the library can be ordered, as its sort menu names them. */
export const LIBRARY_SORTS = [
  { value: 'created_date', label: 'Newest' },
  { value: 'cloned_by_count', label: 'Most added' },
  { value: 'name', label: 'Name' },
] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number]['value'];

/** What the voice library filters by; an empty string is "any". */
export interface LibraryFilters {
  search: string;
  gender: string;
  age: string;
  accent: string;
  language: string;
  useCase: string;
  /** Only the installation's built-in voices (the API's `featured`). */
  builtIn: boolean;
  sort: LibrarySort;
}

export const emptyLibraryFilters: LibraryFilters = {
  search: '',
  gender: '',
  age: '',
  accent: '',
  language: '',
  useCase: '',
  builtIn: false,
  sort: 'created_date',
};

/** Shared voices a page of the library asks for. */
export const LIBRARY_PAGE_SIZE = 30;

/** Whether any filter narrows the library (the sort does not). */
export function hasLibraryFilters(filters: LibraryFilters): boolean {
  if (filters.builtIn) return true;
  return [
    filters.search,
    filters.gender,
    filters.age,
    filters.accent,
    filters.language,
    filters.useCase,
  ].some((value) => value.trim() !== '');
}

/** The `GET /v1/shared-voices` query of one page of the library: "any" filters are left out. */
export function toSharedVoicesQuery(
  filters: LibraryFilters,
  page: number,
  pageSize: number = LIBRARY_PAGE_SIZE,
): z.input<typeof SharedVoicesQuery> {
  const given = (value: string) => value.trim() || undefined;
  return {
    page,
    page_size: pageSize,
    search: given(filters.search),
    gender: given(filters.gender),
    age: given(filters.age),
    accent: given(filters.accent),
    language: given(filters.language),
    use_cases: given(filters.useCase),
    featured: filters.builtIn ? 'true' : undefined,
    sort: filters.sort,
  };
}

/**
 * The language filter's choices (issue 26 item 7): the languages the library's voices speak, as the server
 * lists them, each with its number of voices ("German (4)"). A language chosen that is no longer listed
 * (its last voice unshared) stays, so the select never shows a filter other than the one applied.
 */
export function languageFilterOptions(
  languages: readonly LibraryLanguage[],
  selected: string,
): LabelOption[] {
  const options = languages.map((entry) => ({
    value: entry.language,
    label: `${entry.name} (${entry.voice_count})`,
  }));
  return withSelected(options, selected, () => languageName(selected) ?? selected);
}

/**
 * The accent filter's choices: the accents of the library's voices (of the language chosen, when one is),
 * each once (without a language, "standard" is listed by English and German voices alike), and the accent
 * chosen kept when the list lacks it.
 */
export function accentFilterOptions(accents: readonly VoiceAccent[], selected: string): LabelOption[] {
  const byAccent = new Map<string, LabelOption>();
  for (const entry of accents) {
    if (!byAccent.has(entry.accent)) byAccent.set(entry.accent, { value: entry.accent, label: entry.name });
  }
  return withSelected([...byAccent.values()], selected, () => humanizeLabel(selected));
}

function withSelected(options: LabelOption[], selected: string, label: () => string): LabelOption[] {
  if (!selected || options.some((option) => option.value === selected)) return options;
  return [...options, { value: selected, label: label() }];
}
