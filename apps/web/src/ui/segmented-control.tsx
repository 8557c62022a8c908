import { clsx } from 'clsx';
import { useId } from 'react';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  /** A short note beside the label, e.g. "2 months free". */
  note?: string;
}

export interface SegmentedControlProps<T extends string> {
  /** The group's accessible name. */
  label: string;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
}

/**
 * A choice of a few values as one pill: native radio buttons underneath, so arrow keys move the choice
 * and assistive technology reads a radio group.
 */
export function SegmentedControl<T extends string>({
  label,
  options,
  value,
  onChange,
}: SegmentedControlProps<T>) {
  const name = useId();
  return (
    <fieldset className="inline-flex rounded-lg border border-line bg-subtle p-0.5">
      <legend className="sr-only">{label}</legend>
      {options.map((option) => {
        const checked = option.value === value;
        return (
          <label
            key={option.value}
            className={clsx(
              'relative inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-md px-3 text-sm font-medium transition-colors',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-ring',
              checked ? 'bg-surface text-fg shadow-xs' : 'text-fg-muted hover:text-fg',
            )}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={checked}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            {option.label}
            {option.note && <span className="text-xs font-medium text-success">{option.note}</span>}
          </label>
        );
      })}
    </fieldset>
  );
}
