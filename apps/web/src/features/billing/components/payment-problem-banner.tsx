import { type Currency, formatPrice, type SubscriptionStatus } from '@parla/contracts';
import { Button } from '../../../ui/button';
import { AlertCircleIcon } from '../../../ui/icons';

const explanations: Partial<Record<SubscriptionStatus, string>> = {
  incomplete: 'Your first payment did not go through, so the plan has not started.',
  past_due: 'Your last payment did not go through.',
  free_disabled: 'Your workspace is paused until the open invoice is paid.',
};

export interface PaymentProblemBannerProps {
  status: SubscriptionStatus;
  /** The open invoices' total in cents, when there are any. */
  openAmountCents: number;
  currency: Currency;
  canChangePaymentMethod: boolean;
  onOpenPortal: () => void;
  onUpdatePaymentMethod: () => void;
  busy: boolean;
}

/** accounts §4 "Payment trouble": what is wrong and the two ways out, both on the provider's pages. */
export function PaymentProblemBanner({
  status,
  openAmountCents,
  currency,
  canChangePaymentMethod,
  onOpenPortal,
  onUpdatePaymentMethod,
  busy,
}: PaymentProblemBannerProps) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-4 rounded-xl border border-danger/40 bg-danger-soft p-5 text-fg sm:flex-row sm:items-start"
    >
      <AlertCircleIcon className="mt-0.5 shrink-0 text-xl text-danger" />
      <div className="flex flex-1 flex-col gap-1">
        <p className="font-semibold text-danger">There is a problem with your payment</p>
        <p className="text-sm">
          {explanations[status] ?? 'A payment did not go through.'}{' '}
          {openAmountCents > 0 && `${formatPrice(openAmountCents / 100, currency)} is open. `}
          Update your payment method or pay the open invoice to keep using your plan.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button onClick={busy ? undefined : onOpenPortal} aria-disabled={busy || undefined}>
          Pay the open invoice
        </Button>
        {canChangePaymentMethod && (
          <Button
            variant="secondary"
            onClick={busy ? undefined : onUpdatePaymentMethod}
            aria-disabled={busy || undefined}
          >
            Update payment method
          </Button>
        )}
      </div>
    </div>
  );
}
