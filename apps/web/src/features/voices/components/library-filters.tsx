import { useId } from 'react';
import { Button } from '../../../ui/button';
import { inputClasses } from '../../../ui/field';
import { SearchField } from '../../../ui/search-field';
import { Switch } from '../../../ui/switch';
import { useLibraryLanguages } from '../api/list-library-languages';
import { useVoiceAccents } from '../api/list-voice-accents';
import {
  accentFilterOptions,
  hasLibraryFilters,
  LIBRARY_SORTS,
  type LibraryFilters,
  type LibrarySort,
  languageFilterOptions,
} from '../library-rules';
import { AGE_OPTIONS, GENDER_OPTIONS, type LabelOption, USE_CASE_OPTIONS } from '../voice-labels';

export interface LibraryFiltersProps {
  /** The filters as typed (the search is debounced by the page). */
  value: LibraryFilters;
  onChange: (value: LibraryFilters) => void;
  onClear: () => void;
}

type FilterKey = 'gender' | 'age' | 'accent' | 'language' | 'useCase';

/** A filter whose choices come from the server: whether they are loading, or failed and can be asked again. */
interface LoadedChoices {
  /** "languages", "accents": what failed to load, in the message. */
  noun: string;
  loading: boolean;
  failed: boolean;
  retry: () => void;
}

/**
 * The library's search, its filters (gender, age, accent, language, use case, built-in only) and its sort.
 * The languages and accents are those of the library's voices (issue 26 item 7: a filter offering a
 * language no voice speaks finds nothing), the accents of the language chosen when one is.
 */
export function LibraryFiltersBar({ value, onChange, onClear }: LibraryFiltersProps) {
  const id = useId();
  const set = <K extends keyof LibraryFilters>(key: K, next: LibraryFilters[K]) =>
    onChange({ ...value, [key]: next });
  const languages = useLibraryLanguages();
  const accents = useVoiceAccents(value.language);
  const languageChoices: LoadedChoices = {
    noun: 'languages',
    loading: languages.isPending,
    failed: languages.isError,
    retry: () => void languages.refetch(),
  };
  const accentChoices: LoadedChoices = {
    noun: 'accents',
    loading: accents.isPending,
    failed: accents.isError,
    retry: () => void accents.refetch(),
  };
  /** The label filters, in the order they stand in the bar. */
  const selects: ReadonlyArray<{
    key: FilterKey;
    label: string;
    options: readonly LabelOption[];
    choices?: LoadedChoices;
  }> = [
    { key: 'gender', label: 'Gender', options: GENDER_OPTIONS },
    { key: 'age', label: 'Age', options: AGE_OPTIONS },
    {
      key: 'accent',
      label: 'Accent',
      options: accentFilterOptions(accents.data?.accents ?? [], value.accent),
      choices: accentChoices,
    },
    {
      key: 'language',
      label: 'Language',
      options: languageFilterOptions(languages.data?.languages ?? [], value.language),
      choices: languageChoices,
    },
    { key: 'useCase', label: 'Use case', options: USE_CASE_OPTIONS },
  ];
  const failures = [languageChoices, accentChoices].filter((choices) => choices.failed);
  return (
    <search className="flex flex-col gap-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <SearchField
          id={`${id}-search`}
          label="Search the library"
          showLabel
          value={value.search}
          onChange={(next) => set('search', next)}
          placeholder="Name or description"
          className="flex-1"
        />
        <Switch
          label="Built-in voices only"
          checked={value.builtIn}
          onCheckedChange={(next) => set('builtIn', next)}
          className="sm:shrink-0 sm:pb-2.5"
        />
        <div className="flex flex-col gap-1.5 sm:w-44">
          <label htmlFor={`${id}-sort`} className="text-sm font-medium text-fg">
            Sort by
          </label>
          <select
            id={`${id}-sort`}
            value={value.sort}
            onChange={(event) => set('sort', event.target.value as LibrarySort)}
            className={inputClasses}
          >
            {LIBRARY_SORTS.map((sort) => (
              <option key={sort.value} value={sort.value}>
                {sort.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto] lg:items-end">
        {selects.map((filter) => (
          <FilterSelect
            key={filter.key}
            label={filter.label}
            value={value[filter.key]}
            options={filter.options}
            loading={filter.choices?.loading ?? false}
            onChange={(next) => set(filter.key, next)}
          />
        ))}
        <Button variant="ghost" onClick={onClear} disabled={!hasLibraryFilters(value)}>
          Clear filters
        </Button>
      </div>
      {failures.map((choices) => (
        <p
          key={choices.noun}
          role="alert"
          className="flex flex-wrap items-center gap-x-2 text-sm text-danger"
        >
          <span>{`${choices.noun.charAt(0).toUpperCase()}${choices.noun.slice(1)} could not be loaded.`}</span>
          <Button
            variant="ghost"
            size="sm"
            onClick={choices.retry}
            aria-label={`Load the ${choices.noun} again`}
          >
            Try again
          </Button>
        </p>
      ))}
    </search>
  );
}

function FilterSelect({
  label,
  value,
  options,
  loading,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly LabelOption[];
  /** The choices are being asked for: said in the list, which still offers "Any" and the value chosen. */
  loading: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-fg-muted">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-busy={loading || undefined}
        className={inputClasses}
      >
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
        {loading && (
          <option value="" disabled>
            Loading…
          </option>
        )}
      </select>
    </div>
  );
}
