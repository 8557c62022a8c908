import { type FormEvent, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';

/**
 * A one-field form for a name (a new group, the workspace's name): required, trimmed, the server's refusal
 * shown under the field. With an `initial` name, saving it unchanged does nothing.
 */
export function NameForm({
  label,
  fieldName,
  initial = '',
  emptyMessage,
  submitLabel,
  variant,
  clearOnSuccess = false,
  save,
}: {
  label: string;
  fieldName: string;
  initial?: string;
  emptyMessage: string;
  submitLabel: string;
  variant?: 'secondary';
  clearOnSuccess?: boolean;
  save: (name: string) => Promise<unknown>;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const unchanged = initial !== '' && name.trim() === initial;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError(emptyMessage);
    if (pending || unchanged) return;
    setError(undefined);
    setPending(true);
    try {
      await save(trimmed);
      if (clearOnSuccess) setName('');
    } catch (caught) {
      setError(getToastMessage(caught));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={handleSubmit} noValidate>
      <TextField
        className="flex-1"
        label={label}
        name={fieldName}
        autoComplete="off"
        maxLength={100}
        value={name}
        error={error}
        onChange={(event) => {
          setName(event.target.value);
          setError(undefined);
        }}
      />
      <Button
        type="submit"
        variant={variant}
        className="sm:mt-6.5"
        aria-disabled={pending || unchanged || undefined}
      >
        {submitLabel}
      </Button>
    </form>
  );
}
