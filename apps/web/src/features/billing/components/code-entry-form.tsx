import type { FormEvent } from 'react';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';

interface CodeEntryFormProps {
  name: string;
  value: string;
  error: string | undefined;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onChange(value: string): void;
  onSubmit(event: FormEvent): void;
}

/** One code field and its button: the promo code and the discount code forms. */
export function CodeEntryForm({
  name,
  value,
  error,
  busy,
  submitLabel,
  busyLabel,
  onChange,
  onSubmit,
}: CodeEntryFormProps) {
  return (
    <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={onSubmit} noValidate>
      <TextField
        className="flex-1"
        label="Code"
        name={name}
        autoComplete="off"
        spellCheck={false}
        maxLength={64}
        value={value}
        error={error}
        onChange={(event) => onChange(event.target.value)}
      />
      <Button type="submit" variant="secondary" className="sm:mt-6.5" aria-disabled={busy || undefined}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
