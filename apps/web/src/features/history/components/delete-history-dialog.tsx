import type { HistoryItemResponse } from '@parla/contracts';
import { ConfirmDialog } from '../../../ui/confirm-dialog';

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
    <ConfirmDialog
      open={item !== null}
      title="Delete this generation?"
      description="The text and its audio are deleted for good, and share links to it stop working."
      confirmLabel="Delete"
      pending={pending}
      onConfirm={() => item && onConfirm(item)}
      onCancel={onCancel}
    >
      {item && (
        <blockquote className="line-clamp-4 rounded-lg border border-line bg-subtle px-3 py-2 text-sm text-fg">
          {item.text}
        </blockquote>
      )}
    </ConfirmDialog>
  );
}
