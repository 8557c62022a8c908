import { type FormEvent, useState } from 'react';
import { getToastMessage } from '../lib/http-error';
import { Button } from './button';
import { Dialog } from './dialog';
import { FormMessage, TextField } from './field';
import { SpinnerIcon } from './icons';

export interface RenameDialogProps {
  /** The dialog's title, e.g. "Rename document". */
  title: string;
  /** The name now; submitting it unchanged just closes the dialog. */
  currentName: string;
  /** What to ask for when the name is empty, e.g. "Give the document a name." */
  emptyMessage: string;
  /** The contract's limit once trimmed (200 for the names that use this dialog). */
  maxLength?: number;
  /** The rename is running: the buttons wait and the dialog stays open. */
  pending: boolean;
  /** Saves the trimmed name; a rejection shows its message in the dialog, which stays open. */
  onRename: (name: string) => Promise<unknown>;
  /** Called after a successful save, and on Cancel. */
  onClose: () => void;
}

/** Renames one thing: a name of 1 to `maxLength` characters once trimmed, checked before it is sent. */
export function RenameDialog({
  title,
  currentName,
  emptyMessage,
  maxLength = 200,
  pending,
  onRename,
  onClose,
}: RenameDialogProps) {
  const [name, setName] = useState(currentName);
  const [problem, setProblem] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const trimmed = name.trim();
    const wrong = !trimmed
      ? emptyMessage
      : trimmed.length > maxLength
        ? `At most ${maxLength} characters.`
        : undefined;
    setProblem(wrong);
    if (wrong) return;
    if (trimmed === currentName) return onClose();
    setFailure(undefined);
    onRename(trimmed).then(onClose, (error: unknown) => setFailure(getToastMessage(error)));
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()} title={title}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Name"
          value={name}
          maxLength={maxLength}
          autoFocus
          onChange={(event) => setName(event.target.value)}
          error={problem}
        />
        {failure && <FormMessage>{failure}</FormMessage>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending && <SpinnerIcon className="motion-safe:animate-spin" />}
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
