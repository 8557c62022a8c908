import { clsx } from 'clsx';
import {
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useState,
} from 'react';
import { inputClasses, textareaClasses } from './field';

/** A titled group of fields on an editor tab. */
export function EditorSection({
  title,
  description,
  children,
  actions,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-[1_1_16rem] flex-col gap-1">
          <h3 id={`${id}-title`} className="text-base font-semibold">
            {title}
          </h3>
          {description && <div className="text-sm text-fg-muted">{description}</div>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

function FieldNote({ id, error, description }: { id: string; error?: string; description?: ReactNode }) {
  const note = error ?? description;
  if (!note) return null;
  return (
    <p
      id={id}
      className={clsx('text-sm', error ? 'text-danger' : 'text-fg-muted')}
      role={error ? 'alert' : undefined}
    >
      {note}
    </p>
  );
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  description?: ReactNode;
  error?: string | undefined;
  options: ReadonlyArray<{ value: string; label: string }>;
}

/** A labelled native select, with its note or error read with it. */
export function SelectField({
  label,
  description,
  error,
  options,
  className,
  id,
  ...props
}: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={selectId} className="text-sm font-medium text-fg">
        {label}
      </label>
      <select
        id={selectId}
        className={inputClasses}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || description ? `${selectId}-note` : undefined}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldNote id={`${selectId}-note`} error={error} description={description} />
    </div>
  );
}

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  description?: ReactNode;
  error?: string | undefined;
}

/** A labelled multi-line input, with its note or error read with it. */
export function TextAreaField({ label, description, error, className, id, ...props }: TextAreaFieldProps) {
  const generated = useId();
  const areaId = id ?? generated;
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={areaId} className="text-sm font-medium text-fg">
        {label}
      </label>
      <textarea
        id={areaId}
        className={textareaClasses}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || description ? `${areaId}-note` : undefined}
        {...props}
      />
      <FieldNote id={`${areaId}-note`} error={error} description={description} />
    </div>
  );
}

export interface NumberFieldProps {
  label: string;
  value: number;
  /** NaN while what is typed is not a number (the check before saving refuses it). */
  onValueChange: (value: number) => void;
  description?: ReactNode;
  error?: string | undefined;
  className?: string;
}

/** A labelled number input that keeps what is typed, so a half-typed "0." is not rewritten under the cursor. */
export function NumberField({
  label,
  value,
  onValueChange,
  description,
  error,
  className,
}: NumberFieldProps) {
  const id = useId();
  const [text, setText] = useState(Number.isNaN(value) ? '' : String(value));
  useEffect(() => {
    // A value set from outside (a discard, a save's answer) replaces what is typed.
    setText((current) =>
      Number(current) === value || (current.trim() === '' && Number.isNaN(value)) ? current : String(value),
    );
  }, [value]);
  const typedError = text.trim() !== '' && Number.isNaN(Number(text)) ? 'Enter a number.' : undefined;
  const shown = typedError ?? (text.trim() === '' ? 'Enter a number.' : error);
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        className={inputClasses}
        value={text}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown || description ? `${id}-note` : undefined}
        onChange={(event) => {
          setText(event.target.value);
          const trimmed = event.target.value.trim();
          onValueChange(trimmed === '' ? Number.NaN : Number(trimmed));
        }}
      />
      <FieldNote id={`${id}-note`} error={shown} description={description} />
    </div>
  );
}
