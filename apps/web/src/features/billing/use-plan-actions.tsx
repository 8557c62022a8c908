import {
  type BillingOverview,
  billingPeriodOf,
  type Currency,
  type ExtendedSubscriptionResponse,
  isPaidPlanId,
  type PlanAction,
  type PlanOffer,
  type PricePeriod,
  planActionKind,
  tierDisplayNames,
  tierLimits,
} from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { formatDate, fromUnixSeconds } from '../../lib/format-date';
import { getToastMessage, isHttpError } from '../../lib/http-error';
import { leaveAppTo } from '../../lib/leave-app';
import { useToast } from '../../lib/toasts/use-toast';
import { getWorkspaceQueryOptions } from '../workspace';
import { useCancelDowngrade } from './api/cancel-downgrade';
import { useCancelSubscription } from './api/cancel-subscription';
import { useChangeSubscription } from './api/change-subscription';
import { useCreateCheckoutSession } from './api/create-checkout-session';
import { usePreviewSubscriptionChange } from './api/preview-subscription-change';
import { useRenewSubscription } from './api/renew-subscription';
import { billingMessages, type ChangeType } from './billing-messages';
import { PlanChangeDialog, type UpgradeCharge } from './components/plan-change-dialog';
import { changeTypeOf, describeUpgradeCharge, downgradeSeatWarning } from './plan-change-rules';
import { clearStoredPromo, promoRefusalMessage, readStoredPromo } from './promo';

/** The server's own words under a billing toast, when they are safe to show (accounts §8 generic rule). */
export function serverReason(error: unknown): string | undefined {
  return isHttpError(error) && error.status > 0 && error.status < 500 ? getToastMessage(error) : undefined;
}

interface PendingChange {
  offer: PlanOffer;
  type: ChangeType;
  period: PricePeriod;
  /** One key per opening of the dialog: a double submit is one change on the server. */
  idempotencyKey: string;
}

export interface PlanActionsInput {
  subscription: ExtendedSubscriptionResponse | undefined;
  overview: BillingOverview | undefined;
  currency: Currency;
}

/**
 * Carries out a plan card's action (accounts §4): create checks out with the stored promo; renew and
 * cancel-downgrade call billing at once; cancel, downgrade and upgrade ask first in a dialog.
 */
export function usePlanActions({ subscription, overview, currency }: PlanActionsInput): {
  run: (offer: PlanOffer, action: PlanAction, period: PricePeriod) => void;
  busyPlan: string | null;
  dialog: ReactNode;
} {
  const { toast, toastError } = useToast();
  const checkout = useCreateCheckoutSession();
  const renew = useRenewSubscription();
  const keepPlan = useCancelDowngrade();
  const change = useChangeSubscription();
  const cancel = useCancelSubscription();
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [busyPlan, setBusyPlan] = useState<string | null>(null);

  const currentName = subscription ? tierDisplayNames[subscription.tier] : '';
  const periodEndUnix = overview?.card_payment_provider?.current_period_end ?? null;
  const periodEnd = periodEndUnix ? formatDate(fromUnixSeconds(periodEndUnix)) : null;
  // The seats are read only when a smaller plan is being confirmed (never for a visitor).
  const workspace = useQuery({
    ...getWorkspaceQueryOptions(),
    enabled: pending?.type === 'downgrade' || pending?.type === 'cancel',
  });

  // issue 18: an upgrade's prorated charge is read from the server while its dialog is open.
  const upgradeTarget =
    pending?.type === 'upgrade' && isPaidPlanId(pending.offer.plan_id)
      ? { subscription_type: pending.offer.plan_id, billing_period: billingPeriodOf(pending.period) }
      : null;
  const preview = usePreviewSubscriptionChange(upgradeTarget, { confirming: change.isPending });
  const charge: UpgradeCharge | undefined = !upgradeTarget
    ? undefined
    : preview.isPending
      ? { state: 'loading' }
      : preview.isError
        ? { state: 'error', message: getToastMessage(preview.error) }
        : {
            state: 'ready',
            ...describeUpgradeCharge(preview.data, {
              currentName,
              targetName: pending?.offer.name ?? '',
            }),
          };
  // A smaller plan (a downgrade, or Free after a cancellation) with more members than its seats says so.
  const smallerTier =
    pending?.type === 'cancel'
      ? 'free'
      : pending?.type === 'downgrade' &&
          (pending.offer.plan_id === 'free' || isPaidPlanId(pending.offer.plan_id))
        ? pending.offer.plan_id
        : null;
  const seatWarning =
    smallerTier && workspace.data
      ? downgradeSeatWarning({
          seatsUsed: workspace.data.seats_used,
          targetName: tierDisplayNames[smallerTier],
          targetSeats: tierLimits[smallerTier].maxSeats,
          when: periodEnd,
        })
      : undefined;

  const startCheckout = (offer: PlanOffer, period: PricePeriod) => {
    if (!isPaidPlanId(offer.plan_id)) return;
    setBusyPlan(offer.plan_id);
    const promocode = readStoredPromo()?.promocode ?? null;
    checkout.mutate(
      {
        subscription_type: offer.plan_id,
        billing_period: billingPeriodOf(period),
        currency,
        promocode,
      },
      {
        onSuccess: ({ url }) => leaveAppTo(url),
        onError: (error) => {
          setBusyPlan(null);
          // An expired or invalid stored coupon is removed with its §8 message; Subscribe then works.
          const refusal = promocode ? promoRefusalMessage(promocode, error) : null;
          if (refusal) {
            clearStoredPromo();
            toast({ title: refusal, variant: 'error' });
            return;
          }
          toast({
            title: billingMessages.checkoutFailed,
            description: serverReason(error),
            variant: 'error',
          });
        },
      },
    );
  };

  const runDirect = (offer: PlanOffer, action: PlanAction) => {
    const mutation = action === 'renewSubscription' ? renew : keepPlan;
    const success =
      action === 'renewSubscription'
        ? `Your ${currentName} subscription will renew.`
        : `The downgrade is canceled: you keep ${currentName}.`;
    setBusyPlan(offer.plan_id);
    mutation.mutate(crypto.randomUUID(), {
      onSuccess: () => toast({ title: success, variant: 'success' }),
      onError: toastError,
      onSettled: () => setBusyPlan(null),
    });
  };

  const run = (offer: PlanOffer, action: PlanAction, period: PricePeriod) => {
    const kind = planActionKind(action);
    if (kind === 'checkout') return startCheckout(offer, period);
    if (kind === 'direct') return runDirect(offer, action);
    const type = changeTypeOf(action);
    if (kind === 'dialog' && type) setPending({ offer, type, period, idempotencyKey: crypto.randomUUID() });
  };

  const confirm = () => {
    if (!pending) return;
    const { offer, type, period, idempotencyKey } = pending;
    const handlers = {
      onSuccess: () => {
        setPending(null);
        const titles: Record<ChangeType, string> = {
          upgrade: `You are now on ${offer.name}.`,
          downgrade: `${offer.name} starts at the end of this billing period.`,
          cancel: 'Your subscription ends at the end of this billing period.',
        };
        toast({ title: titles[type], variant: 'success' });
      },
      // Closed, so that trying again opens the dialog with a fresh idempotency key.
      onError: (error: unknown) => {
        setPending(null);
        toast({
          title: billingMessages.changeFailed(type),
          description: serverReason(error),
          variant: 'error',
        });
      },
    };
    if (type === 'cancel') return cancel.mutate(idempotencyKey, handlers);
    if (offer.plan_id !== 'free' && !isPaidPlanId(offer.plan_id)) return;
    change.mutate(
      {
        subscription_type: offer.plan_id,
        billing_period: billingPeriodOf(period),
        idempotency_key: idempotencyKey,
      },
      handlers,
    );
  };

  const dialog = (
    <PlanChangeDialog
      change={
        pending && {
          type: pending.type,
          currentName,
          targetName: pending.type === 'cancel' ? currentName : pending.offer.name,
          targetPeriod: pending.period,
          periodEnd,
        }
      }
      busy={change.isPending || cancel.isPending}
      charge={charge}
      seatWarning={seatWarning}
      onConfirm={confirm}
      onClose={() => setPending(null)}
    />
  );

  return { run, busyPlan, dialog };
}
