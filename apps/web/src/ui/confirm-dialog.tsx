import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { SpinnerIcon } from './icons';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  /** The confirm button's text, e.g. "Delete". */
  confirmLabel: string;
  /** `danger` for what cannot be undone. */
  tone?: 'primary' | 'danger';
  /** The confirmed action is running: the buttons wait and the dialog stays open. */
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** What is about to be affected, shown between the description and the buttons. */
  children?: ReactNode;
}

/**
 * Asks before an action (history/voices §5 "Confirm dialogs"): Cancel, Escape and the overlay close it,
 * except while the action runs.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  tone = 'danger',
  pending = false,
  onConfirm,
  onCancel,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onCancel();
      }}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button variant={tone} onClick={onConfirm} disabled={pending} aria-busy={pending}>
            {pending && <SpinnerIcon className="motion-safe:animate-spin" />}
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
