import { type FormEvent, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage } from '../../../ui/field';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeyForm } from '../use-api-key-form';
import { ApiKeyFields } from './api-key-fields';
import { NewApiKeyReveal } from './new-api-key-reveal';

/** Creates a key, then shows it once in the same dialog; closing empties the form for the next key. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const form = useApiKeyForm();
  const create = useCreateApiKey();
  /** The new key, in this dialog only: the server never shows it again. */
  const [created, setCreated] = useState<string>();

  const close = () => {
    form.reset();
    setCreated(undefined);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.read();
    if (!body || create.isPending) return;
    form.setError(undefined);
    create.mutate(body, {
      onSuccess: (answer) => setCreated(answer.xi_api_key),
      onError: (caught) => form.setError(getToastMessage(caught)),
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      title={created ? 'Your new API key' : 'Create API key'}
      description={created ? 'Copy it now: for your safety it is not shown again.' : undefined}
      footer={created ? <Button onClick={close}>Done</Button> : undefined}
    >
      {created ? (
        <NewApiKeyReveal apiKey={created} />
      ) : (
        <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
          <ApiKeyFields {...form.fields} autoFocus />
          {form.error && <FormMessage>{form.error}</FormMessage>}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" aria-disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create key'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
