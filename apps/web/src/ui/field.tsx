import { clsx } from 'clsx';
import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

/** The look of a text input, shared by inputs that cannot use <TextField>. */
export const inputClasses = clsx(
  'h-10 w-full rounded-lg border border-line bg-surface px-3 text-sm text-fg shadow-xs',
  'placeholder:text-fg-muted/70',
  'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30',
  'disabled:cursor-not-allowed disabled:opacity-60',
  'aria-invalid:border-danger aria-invalid:focus-visible:outline-danger/30',
);

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Shown under the input while there is no error. */
  description?: ReactNode;
  /** Shown under the input in the danger colour, and announced; marks the input invalid. */
  error?: string | undefined;
}

/** A labelled input with its description or error wired up for assistive technology. */
export function TextField({
  label,
  description,
  error,
  id,
  className,
  'aria-describedby': alsoDescribedBy,
  ...props
}: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const noteId = `${inputId}-note`;
  const note = error ?? description;
  // The note first, then what the caller adds (e.g. a list of rules printed elsewhere in the form).
  const describedBy = [note ? noteId : undefined, alsoDescribedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className="text-sm font-medium text-fg">
        {label}
      </label>
      <input
        id={inputId}
        className={inputClasses}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...props}
      />
      {note && (
        <p
          id={noteId}
          className={clsx('text-sm', error ? 'text-danger' : 'text-fg-muted')}
          role={error ? 'alert' : undefined}
        >
          {note}
        </p>
      )}
    </div>
  );
}

/** A form-level message (e.g. the server's answer) above the submit button. */
export function FormMessage({
  children,
  tone = 'danger',
}: {
  children: ReactNode;
  tone?: 'danger' | 'success';
}) {
  return (
    <p
      role={tone === 'danger' ? 'alert' : 'status'}
      className={clsx(
        // A server's sentence may carry a long path or id: it wraps rather than passing the edge.
        'rounded-lg px-3 py-2 text-sm break-words',
        tone === 'danger' ? 'bg-danger-soft text-danger' : 'bg-success-soft text-success',
      )}
    >
      {children}
    </p>
  );
}

/** The look of a multi-line text input, matching inputClasses. */
export const textareaClasses = clsx(
  'w-full resize-y rounded-lg border border-line bg-surface p-3 text-sm text-fg shadow-xs',
  'placeholder:text-fg-muted/70',
  'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30',
  'disabled:cursor-not-allowed disabled:opacity-60',
  'aria-invalid:border-danger aria-invalid:focus-visible:outline-danger/30',
);
