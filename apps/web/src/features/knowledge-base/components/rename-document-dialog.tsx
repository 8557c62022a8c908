import { type FormEvent, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField } from '../../../ui/field';
import { SpinnerIcon } from '../../../ui/icons';
import { useRenameDocument } from '../api/update-document';

/** Renames a document; the name is 1 to 200 characters once trimmed (the contract's rule). */
export function RenameDocumentDialog({
  document,
  onClose,
}: {
  document: { id: string; name: string };
  onClose: () => void;
}) {
  const { toast } = useToast();
  const rename = useRenameDocument();
  const [name, setName] = useState(document.name);
  const [problem, setProblem] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (rename.isPending) return;
    const trimmed = name.trim();
    const wrong = !trimmed
      ? 'Give the document a name.'
      : trimmed.length > 200
        ? 'At most 200 characters.'
        : undefined;
    setProblem(wrong);
    if (wrong) return;
    if (trimmed === document.name) return onClose();
    setFailure(undefined);
    rename.mutate(
      { documentId: document.id, name: trimmed },
      {
        onSuccess: () => {
          toast({ title: 'Document renamed', variant: 'success' });
          onClose();
        },
        onError: (error) => setFailure(getToastMessage(error)),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !rename.isPending && onClose()} title="Rename document">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Name"
          value={name}
          maxLength={200}
          autoFocus
          onChange={(event) => setName(event.target.value)}
          error={problem}
        />
        {failure && <FormMessage>{failure}</FormMessage>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={rename.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={rename.isPending} aria-busy={rename.isPending}>
            {rename.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
