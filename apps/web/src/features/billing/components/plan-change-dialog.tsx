import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { SpinnerIcon } from '../../../ui/icons';
import { type ChangeDialogInput, changeDialogCopy } from '../plan-change-rules';

/** An upgrade's charge now, as the dialog shows it before charging (issue 18). */
export type UpgradeCharge =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; amount: string; detail: string };

export interface PlanChangeDialogProps {
  /** The change to confirm; null closes the dialog. */
  change: ChangeDialogInput | null;
  busy: boolean;
  /** For an upgrade: the prorated amount charged on confirming. */
  charge?: UpgradeCharge | undefined;
  /** For a downgrade or a cancellation: what it means when the members do not fit the smaller plan. */
  seatWarning?: string | undefined;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The confirm step of a cancellation, downgrade or upgrade (accounts §4), saying when it takes effect, what
 * an upgrade charges now, and what a smaller plan means for the seats.
 */
export function PlanChangeDialog({
  change,
  busy,
  charge,
  seatWarning,
  onConfirm,
  onClose,
}: PlanChangeDialogProps) {
  const copy = change ? changeDialogCopy(change) : null;
  // Nothing is charged before the amount is on screen.
  const waiting = busy || charge?.state === 'loading';
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
              aria-disabled={waiting || undefined}
              onClick={waiting ? undefined : onConfirm}
            >
              {busy ? 'Working…' : copy.confirm}
            </Button>
          </>
        )
      }
    >
      {change?.type === 'upgrade' && charge && (
        <div className="rounded-lg border border-line bg-subtle px-4 py-3 text-sm" aria-live="polite">
          {charge.state === 'loading' ? (
            <p className="flex items-center gap-2 text-fg-muted">
              <SpinnerIcon className="motion-safe:animate-spin" />
              Working out the amount…
            </p>
          ) : charge.state === 'error' ? (
            <p className="text-danger">The amount could not be worked out: {charge.message}</p>
          ) : (
            <>
              <p className="font-medium text-fg">
                Charged now: <span className="tabular-nums">{charge.amount}</span>
              </p>
              <p className="mt-0.5 text-fg-muted">{charge.detail}</p>
            </>
          )}
        </div>
      )}
      {seatWarning && (
        <p
          role="note"
          className="rounded-lg border border-warning/30 bg-warning-soft px-4 py-3 text-sm text-fg"
        >
          {seatWarning}
        </p>
      )}
    </Dialog>
  );
}
