import { createCollectionRoute } from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Dialog } from '../../../ui/dialog';
import { FormMessage } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { VoiceNameField } from './voice-name-field';

export interface CollectionNameDialogProps {
  open: boolean;
  title: string;
  /** The name to start from: empty for a new collection, the current one to rename. */
  initialName: string;
  submitLabel: string;
  pending: boolean;
  /** The server's refusal, shown above the buttons. */
  error: string | undefined;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/** Names a collection: a new one, or one being renamed. The name is checked as the contract checks it. */
export function CollectionNameDialog({ open, title, ...form }: CollectionNameDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !form.pending) form.onClose();
      }}
      title={title}
    >
      {open && <CollectionNameForm {...form} />}
    </Dialog>
  );
}

function CollectionNameForm({
  initialName,
  submitLabel,
  pending,
  error,
  onSubmit,
  onClose,
}: Omit<CollectionNameDialogProps, 'open' | 'title'>) {
  const id = useId();
  const [name, setName] = useState(initialName);
  const [problem, setProblem] = useState<string | undefined>();
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    // The contract's own check of a collection's name (trimmed, 1 to 100 characters).
    const parsed = createCollectionRoute.body?.safeParse({ name });
    if (parsed && !parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Give the collection a name.');
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    onSubmit(name.trim());
  };
  return (
    <form className="flex flex-col gap-4" onSubmit={handleSubmit} noValidate>
      <VoiceNameField
        id={`${id}-name`}
        value={name}
        error={problem}
        disabled={pending}
        placeholder="e.g. Podcast cast"
        onChange={(next) => {
          setName(next);
          setProblem(undefined);
        }}
      />
      {error && <FormMessage>{error}</FormMessage>}
      <FormActions submitLabel={submitLabel} pending={pending} onCancel={onClose} className="pt-1" />
    </form>
  );
}
