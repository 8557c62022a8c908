import type { SharedVoicesQuery } from '@parla/contracts';
import type { z } from 'zod';

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
