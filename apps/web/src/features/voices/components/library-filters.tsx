import { useId } from 'react';
import { Button } from '../../../ui/button';
import { inputClasses } from '../../../ui/field';
import { SearchField } from '../../../ui/search-field';
import { Switch } from '../../../ui/switch';
import { hasLibraryFilters, LIBRARY_SORTS, type LibraryFilters, type LibrarySort } from '../library-rules';
import {
  ACCENT_OPTIONS,
  AGE_OPTIONS,
  GENDER_OPTIONS,
  LANGUAGE_OPTIONS,
  type LabelOption,
  USE_CASE_OPTIONS,
} from '../voice-labels';

export interface LibraryFiltersProps {
  /** The filters as typed (the search is debounced by the page). */
  value: LibraryFilters;
  onChange: (value: LibraryFilters) => void;
  onClear: () => void;
}

/** The label filters, in the order they stand in the bar. */
const FILTER_SELECTS: ReadonlyArray<{
  key: 'gender' | 'age' | 'accent' | 'language' | 'useCase';
  label: string;
  options: readonly LabelOption[];
}> = [
  { key: 'gender', label: 'Gender', options: GENDER_OPTIONS },
  { key: 'age', label: 'Age', options: AGE_OPTIONS },
  { key: 'accent', label: 'Accent', options: ACCENT_OPTIONS },
  { key: 'language', label: 'Language', options: LANGUAGE_OPTIONS },
  { key: 'useCase', label: 'Use case', options: USE_CASE_OPTIONS },
];

/** The library's search, its filters (gender, age, accent, language, use case, built-in only) and its sort. */
export function LibraryFiltersBar({ value, onChange, onClear }: LibraryFiltersProps) {
  const id = useId();
  const set = <K extends keyof LibraryFilters>(key: K, next: LibraryFilters[K]) =>
    onChange({ ...value, [key]: next });
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
        {FILTER_SELECTS.map((filter) => (
          <FilterSelect
            key={filter.key}
            label={filter.label}
            value={value[filter.key]}
            options={filter.options}
            onChange={(next) => set(filter.key, next)}
          />
        ))}
        <Button variant="ghost" onClick={onClear} disabled={!hasLibraryFilters(value)}>
          Clear filters
        </Button>
      </div>
    </search>
  );
}

function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly LabelOption[];
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
        className={inputClasses}
      >
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
