import { clsx } from 'clsx';
import { type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';
import { inputClasses, textareaClasses } from '../../../ui/field';

/*
 * A labelled select and text area with their note or error read with them, as the agent editor's
 * (features/agents/components/editor-fields.tsx, which a feature may not import): candidates for ui/.
 */

function Note({ id, error, description }: { id: string; error?: string | undefined; description?: string }) {
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

export function TestSelectField({
  label,
  description,
  error,
  options,
  className,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  description?: string;
  error?: string | undefined;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  const id = useId();
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
      </label>
      <select
        id={id}
        className={inputClasses}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || description ? `${id}-note` : undefined}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Note id={`${id}-note`} error={error} description={description} />
    </div>
  );
}

export function TestTextAreaField({
  label,
  description,
  error,
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  description?: string;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
      </label>
      <textarea
        id={id}
        className={textareaClasses}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || description ? `${id}-note` : undefined}
        {...props}
      />
      <Note id={`${id}-note`} error={error} description={description} />
    </div>
  );
}
