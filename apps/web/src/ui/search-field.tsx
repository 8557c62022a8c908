import { clsx } from 'clsx';
import { inputClasses } from './field';

export interface SearchFieldProps {
  id: string;
  label: string;
  /** Shows the label above the input; otherwise only assistive technology reads it. */
  showLabel?: boolean;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  className?: string;
}

/** A labelled search input; what it searches is the caller's (usually debounced, on the server). */
export function SearchField({
  id,
  label,
  showLabel = false,
  value,
  onChange,
  placeholder,
  className,
}: SearchFieldProps) {
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className={showLabel ? 'text-sm font-medium text-fg' : 'sr-only'}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        maxLength={200}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        className={inputClasses}
      />
    </div>
  );
}
