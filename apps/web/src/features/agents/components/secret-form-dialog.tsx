import type { StoredSecret } from '@parla/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { getToastMessage, readFieldError } from '../../../lib/http-error';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { useCreateSecret } from '../api/create-secret';
import { useUpdateSecret } from '../api/update-secret';

export interface SecretFormDialogProps {
  /** `new` to add a secret, a secret to replace its value, null when closed. */
  secret: StoredSecret | 'new' | null;
  onClose: () => void;
  onSaved: (name: string) => void;
}

/** Adds a secret or replaces one's value; the value is sent once and never shown again. */
export function SecretFormDialog({ secret, onClose, onSaved }: SecretFormDialogProps) {
  const replacing = secret !== null && secret !== 'new' ? secret : null;
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ name?: string; value?: string }>({});
  const create = useCreateSecret();
  const update = useUpdateSecret();
  const { reset: resetCreate } = create;
  const { reset: resetUpdate } = update;
  const pending = create.isPending || update.isPending;
  const failure = create.error ?? update.error;

  useEffect(() => {
    if (secret === null) return;
    setName(secret === 'new' ? '' : secret.name);
    setValue('');
    setErrors({});
    resetCreate();
    resetUpdate();
  }, [secret, resetCreate, resetUpdate]);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const found: { name?: string; value?: string } = {};
    if (name.trim() === '') found.name = 'Give the secret a name.';
    if (value === '') found.value = 'Enter the secret’s value.';
    else if (/[\r\n\0]/.test(value)) found.value = 'A secret is one line (it goes into a header).';
    setErrors(found);
    if (found.name || found.value) return;
    const done = { onSuccess: () => onSaved(name.trim()) };
    if (replacing) update.mutate({ secretId: replacing.secret_id, name: name.trim(), value }, done);
    else create.mutate({ name: name.trim(), value }, done);
  };
  const nameError = errors.name ?? readFieldError(failure, 'name');
  const valueError = errors.value ?? readFieldError(failure, 'value');

  return (
    <Dialog
      open={secret !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
      title={replacing ? `Replace ${replacing.name}` : 'New secret'}
      description="Stored encrypted. Nobody sees the value again, not even you: to change it, replace it."
    >
      <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Name"
          value={name}
          maxLength={100}
          placeholder="Orders API key"
          onChange={(event) => setName(event.target.value)}
          error={nameError}
        />
        <TextField
          label={replacing ? 'New value' : 'Value'}
          type="password"
          autoComplete="off"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={valueError}
        />
        {failure && !nameError && !valueError && <FormMessage>{getToastMessage(failure)}</FormMessage>}
        <FormActions
          submitLabel={pending ? 'Saving…' : replacing ? 'Replace value' : 'Add secret'}
          pending={pending}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
