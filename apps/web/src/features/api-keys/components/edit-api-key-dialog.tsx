import type { ApiKeyResponse } from '@parla/contracts';
import type { FormEvent } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage } from '../../../ui/field';
import { useEditApiKey } from '../api/edit-api-key';
import { useApiKeyForm } from '../use-api-key-form';
import { ApiKeyFields } from './api-key-fields';

/** Renames a key or changes its credit limit; mount it per key, its form starts from the key. */
export function EditApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKeyResponse; onClose: () => void }) {
  const form = useApiKeyForm(apiKey);
  const edit = useEditApiKey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.read();
    if (!body || edit.isPending) return;
    edit.mutate(
      { keyId: apiKey.key_id, body },
      { onSuccess: onClose, onError: (caught) => form.setError(getToastMessage(caught)) },
    );
  };

  return (
    <Dialog open onOpenChange={(next) => !next && onClose()} title={`Edit "${apiKey.name}"`}>
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <ApiKeyFields {...form.fields} />
        {form.error && <FormMessage>{form.error}</FormMessage>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" aria-disabled={edit.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
