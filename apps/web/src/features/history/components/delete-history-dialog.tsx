import type { HistoryItemResponse } from '@parla/contracts';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { SpinnerIcon } from '../../../ui/icons';

export interface DeleteHistoryDialogProps {
  /** The item to delete; the dialog is open while there is one. */
  item: HistoryItemResponse | null;
  pending: boolean;
  onConfirm: (item: HistoryItemResponse) => void;
  onCancel: () => void;
}

/** Asks before deleting a history item: the item and its audio cannot be brought back. */
export function DeleteHistoryDialog({ item, pending, onConfirm, onCancel }: DeleteHistoryDialogProps) {
  return (
    <Dialog
      open={item !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onCancel();
      }}
      title="Delete this generation?"
      description="The text and its audio are deleted for good, and share links to it stop working."
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => item && onConfirm(item)}
            disabled={pending}
            aria-busy={pending}
          >
            {pending && <SpinnerIcon className="motion-safe:animate-spin" />}
            Delete
          </Button>
        </>
      }
    >
      {item && (
        <blockquote className="line-clamp-4 rounded-lg border border-line bg-subtle px-3 py-2 text-sm text-fg">
          {item.text}
        </blockquote>
      )}
    </Dialog>
  );
}
