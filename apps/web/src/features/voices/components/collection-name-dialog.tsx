import { createCollectionRoute, VOICE_NAME_MAX } from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField } from '../../../ui/field';
import { SpinnerIcon } from '../../../ui/icons';

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
export function CollectionNameDialog({
  open,
  title,
  initialName,
  submitLabel,
  pending,
  error,
  onSubmit,
  onClose,
}: CollectionNameDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onClose();
      }}
      title={title}
    >
      {open && (
        <CollectionNameForm
          initialName={initialName}
          submitLabel={submitLabel}
          pending={pending}
          error={error}
          onSubmit={onSubmit}
          onClose={onClose}
        />
      )}
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
      <TextField
        id={`${id}-name`}
        label="Name"
        value={name}
        maxLength={VOICE_NAME_MAX}
        autoComplete="off"
        placeholder="e.g. Podcast cast"
        required
        error={problem}
        disabled={pending}
        onChange={(event) => {
          setName(event.target.value);
          setProblem(undefined);
        }}
      />
      {error && <FormMessage>{error}</FormMessage>}
      <div className="flex flex-wrap justify-end gap-2 pt-1">
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" aria-busy={pending} aria-disabled={pending || undefined}>
          {pending && <SpinnerIcon className="motion-safe:animate-spin" />}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
