import {
  type BillingOverview,
  type CurrentPlan,
  type ExtendedSubscriptionResponse,
  isPaidTier,
  PendingChange,
  pricePeriodOf,
} from '@parla/contracts';

type SubscriptionFacts = Pick<ExtendedSubscriptionResponse, 'tier' | 'billing_period' | 'pending_change'>;
type OverviewFacts = Pick<BillingOverview, 'card_payment_provider'>;

/** The subscription's pending change, when the server sends one in the contract's shape. */
export function pendingChangeOf(
  subscription: Pick<SubscriptionFacts, 'pending_change'>,
): PendingChange | null {
  const parsed = PendingChange.safeParse(subscription.pending_change);
  return parsed.success ? parsed.data : null;
}

/**
 * The workspace's plan as the plan-action rules see it (accounts §4): canceled when a paid tier with a
 * period is set to end at the period end; a pending downgrade from the provider's schedule (type=downgrade,
 * downgrade_to) or, failing the overview, from the subscription's pending change.
 */
export function currentPlanOf(subscription: SubscriptionFacts, overview?: OverviewFacts | null): CurrentPlan {
  const period = subscription.billing_period ? pricePeriodOf(subscription.billing_period) : null;
  const pending = pendingChangeOf(subscription);
  const card = overview?.card_payment_provider ?? null;
  const endsAtPeriodEnd = card ? card.cancel_at_period_end : pending?.kind === 'cancellation';
  const schedule = card?.schedule?.metadata;
  const pendingDowngrade = schedule
    ? { tier: schedule.downgrade_to, period: pricePeriodOf(schedule.downgrade_to_period) }
    : pending?.kind === 'change'
      ? { tier: pending.next_tier, period: pricePeriodOf(pending.next_billing_period) }
      : null;
  return {
    tier: subscription.tier,
    period,
    pendingCancellation: isPaidTier(subscription.tier) && period !== null && endsAtPeriodEnd,
    pendingDowngrade,
  };
}

/**
 * The change waiting at the period end, for the summary: the subscription's own pending change, else what
 * the provider record says (a scheduled downgrade or a cancellation at `current_period_end`).
 */
export function pendingChangeFrom(
  subscription: Pick<SubscriptionFacts, 'pending_change'>,
  overview?: OverviewFacts | null,
): PendingChange | null {
  const own = pendingChangeOf(subscription);
  if (own) return own;
  const card = overview?.card_payment_provider;
  if (!card?.current_period_end) return null;
  const schedule = card.schedule?.metadata;
  if (schedule) {
    return {
      kind: 'change',
      next_tier: schedule.downgrade_to,
      next_billing_period: schedule.downgrade_to_period,
      timestamp_seconds: card.current_period_end,
    };
  }
  return card.cancel_at_period_end
    ? { kind: 'cancellation', timestamp_seconds: card.current_period_end }
    : null;
}
