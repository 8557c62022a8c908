import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { type ChangeDialogInput, changeDialogCopy } from '../plan-change-rules';

export interface PlanChangeDialogProps {
  /** The change to confirm; null closes the dialog. */
  change: ChangeDialogInput | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** The confirm step of a cancellation, downgrade or upgrade (accounts §4), saying when it takes effect. */
export function PlanChangeDialog({ change, busy, onConfirm, onClose }: PlanChangeDialogProps) {
  const copy = change ? changeDialogCopy(change) : null;
  return (
    <Dialog
      open={change !== null}
      onOpenChange={(open) => !open && !busy && onClose()}
      title={copy?.title ?? ''}
      description={copy?.description}
      footer={
        copy && (
          <>
            <Button variant="secondary" onClick={onClose} aria-disabled={busy || undefined}>
              {copy.dismiss}
            </Button>
            <Button
              variant={change?.type === 'cancel' ? 'danger' : 'primary'}
              aria-disabled={busy || undefined}
              onClick={busy ? undefined : onConfirm}
            >
              {busy ? 'Working…' : copy.confirm}
            </Button>
          </>
        )
      }
    />
  );
}
