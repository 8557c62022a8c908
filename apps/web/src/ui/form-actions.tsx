import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Button } from './button';
import { SpinnerIcon } from './icons';

export interface FormActionsProps {
  /** The submit button's text (e.g. "Saving…" while pending). */
  submitLabel: ReactNode;
  /** The form is being sent: Cancel is disabled and the submit button spins. */
  pending: boolean;
  /** Marks the submit button aria-disabled (it keeps the focus); the form's handler ignores it. */
  submitDisabled?: boolean;
  onCancel: () => void;
  submitId?: string;
  className?: string;
}

/** A form's Cancel and submit buttons, right-aligned under it. */
export function FormActions({
  submitLabel,
  pending,
  submitDisabled = pending,
  onCancel,
  submitId,
  className,
}: FormActionsProps) {
  return (
    <div className={clsx('flex flex-wrap justify-end gap-2', className)}>
      <Button variant="secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button id={submitId} type="submit" aria-busy={pending} aria-disabled={submitDisabled || undefined}>
        {pending && <SpinnerIcon className="motion-safe:animate-spin" />}
        {submitLabel}
      </Button>
    </div>
  );
}
