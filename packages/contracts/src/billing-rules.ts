import {
  type BillingPeriod,
  isEnterpriseTier,
  type PaidPlanId,
  type PlanId,
  type PricePeriod,
  type SubscriptionTier,
  tierRank,
} from './plans';

/**
 * The pure rules of accounts §4 and §6 for plans and billing: which action a plan card offers, when its
 * button is disabled, which plan a promo amount means, which offer is recommended, which payment provider
 * a workspace has. The server and the web both decide with these.
 */

export type SubscriptionStatus = 'trialing' | 'active' | 'incomplete' | 'past_due' | 'free' | 'free_disabled';

export type PlanAction =
  | 'renewSubscription'
  | 'none'
  | 'cancelSubscription'
  | 'cancelDowngrade'
  | 'create'
  | 'downgrade'
  | 'upgrade';

/** The button labels of accounts §4 (downgrade and upgrade open a dialog named after them). */
export const planActionLabels: Record<PlanAction, string> = {
  renewSubscription: 'Do Not Cancel',
  none: 'Subscribed',
  cancelSubscription: 'Cancel Subscription',
  cancelDowngrade: 'Cancel Downgrade',
  create: 'Subscribe',
  downgrade: 'Downgrade',
  upgrade: 'Upgrade',
};

/** The workspace's plan as the rules see it. */
export interface CurrentPlan {
  tier: SubscriptionTier;
  /** Null on free (no billing period). */
  period: PricePeriod | null;
  /** Paid, with a period, and set to end at the period end (accounts §4 "counts as canceled"). */
  pendingCancellation: boolean;
  /** The scheduled downgrade (schedule metadata type=downgrade, downgrade_to), if any. */
  pendingDowngrade: { tier: SubscriptionTier; period: PricePeriod } | null;
}

export interface PlanTarget {
  tier: PlanId;
  period: PricePeriod;
}

function isFreeOrTrial(tier: SubscriptionTier): boolean {
  return tier === 'free' || tier === 'trial';
}

/** Free has no period, so any period of the free card is the free plan. */
function isSamePlan(target: PlanTarget, current: CurrentPlan): boolean {
  if (target.tier !== current.tier) return false;
  return isFreeOrTrial(current.tier) || current.period === target.period;
}

/** accounts §4 "Plan action for a target tier and period", rules 1–6 in order. */
export function planAction(target: PlanTarget, current: CurrentPlan): PlanAction {
  const same = isSamePlan(target, current);
  if (same && current.pendingCancellation) return 'renewSubscription';
  if (same && isFreeOrTrial(current.tier)) return 'none';
  if (same) return 'cancelSubscription';
  const pending = current.pendingDowngrade;
  if (pending && pending.tier === target.tier && pending.period === target.period) return 'cancelDowngrade';
  if (isFreeOrTrial(current.tier)) return 'create';
  const targetRank = tierRank(target.tier);
  const currentRank = tierRank(current.tier);
  if (targetRank < currentRank) return 'downgrade';
  if (targetRank <= currentRank && target.period === current.period) return 'downgrade';
  if (current.period === 'yearly' && target.period === 'monthly') return 'downgrade';
  return 'upgrade';
}

/** How each action is carried out (accounts §4): create checks out; renew and cancel-downgrade call billing; the rest confirm first. */
export function planActionKind(action: PlanAction): 'checkout' | 'direct' | 'dialog' | 'nothing' {
  if (action === 'create') return 'checkout';
  if (action === 'renewSubscription' || action === 'cancelDowngrade') return 'direct';
  if (action === 'none') return 'nothing';
  return 'dialog';
}

export interface PlanButtonContext {
  loggedIn: boolean;
  /** A deployment with no way to take payments (BILLING_PROVIDER=none). */
  isolatedEnvironment: boolean;
  status: SubscriptionStatus;
  currentTier: SubscriptionTier;
}

/**
 * accounts §4 "Button disabling". The rule for which tiers may not cancel is not shown: enterprise and
 * trial run on contracts, so they cannot cancel here.
 */
export function isPlanButtonDisabled(
  action: PlanAction,
  target: PlanTarget,
  context: PlanButtonContext,
): boolean {
  if (!context.loggedIn) return true;
  if (action === 'none') return true;
  if (context.isolatedEnvironment && target.tier !== 'free') return true;
  if (action === 'create') return context.status === 'incomplete' || !isFreeOrTrial(context.currentTier);
  if (action === 'upgrade') return context.status !== 'active';
  if (action === 'cancelSubscription') return isEnterpriseTier(context.currentTier);
  return false;
}

/** The badge on a plan card (accounts §4). */
export function planBadge(
  target: PlanTarget,
  current: CurrentPlan,
): 'Will be canceled' | 'Will be downgraded' | null {
  if (isSamePlan(target, current) && current.pendingCancellation) return 'Will be canceled';
  if (isSamePlan(target, current) && current.pendingDowngrade) return 'Will be downgraded';
  return null;
}

/** accounts §4: promo amounts in cents name the plan they pay for. */
export function promoPlanForAmount(amountOffCents: number | null | undefined): PaidPlanId | null {
  switch (amountOffCents) {
    case 500:
      return 'starter';
    case 2200:
      return 'creator';
    case 9900:
    case 10000:
      return 'pro';
    case 33000:
      return 'growing_business';
    case 132000:
      return 'scale_2024_08_10';
    default:
      return null;
  }
}

/** The plans that show as cards, in order. */
export const OFFERED_PLANS = [
  'free',
  'starter',
  'creator',
  'pro',
  'growing_business',
  'scale_2024_08_10',
] as const;
export const MOST_POPULAR_PLAN: PaidPlanId = 'creator';

/**
 * accounts §4 "Recommended offer": the most popular plan when it is an upgrade from the current tier,
 * otherwise the next plan up; none above Business or for enterprise and trial.
 */
export function recommendedPlan(currentTier: SubscriptionTier): PaidPlanId | null {
  if (tierRank(MOST_POPULAR_PLAN) > tierRank(currentTier)) return MOST_POPULAR_PLAN;
  const next = OFFERED_PLANS.find((plan) => tierRank(plan) > tierRank(currentTier));
  return next && next !== 'free' ? next : null;
}

/** accounts §4: monthly_period gives monthly, annual_period gives yearly; no period gives monthly. */
export function defaultPricePeriod(billingPeriod: BillingPeriod | null | undefined): PricePeriod {
  return billingPeriod === 'annual_period' ? 'yearly' : 'monthly';
}

export type PaymentProviderKind = 'card' | 'marketplace' | 'consolidated' | 'none';

/** accounts §4 "Payment provider choice". */
export function paymentProviderOf(workspace: {
  cardPaymentProvider: unknown;
  gcpMarketplacePaymentDetails: unknown;
  consolidatedBilling: unknown;
}): PaymentProviderKind {
  if (workspace.cardPaymentProvider) return 'card';
  if (workspace.gcpMarketplacePaymentDetails) return 'marketplace';
  if (workspace.consolidatedBilling) return 'consolidated';
  return 'none';
}

/**
 * A subscription with a card behind it: a paid plan that is active, or any workspace that owes a payment
 * (past_due, incomplete, free_disabled), whose new card pays what is open.
 */
export function isQualifyingSubscription(tier: SubscriptionTier, status: SubscriptionStatus): boolean {
  if (isEnterpriseTier(tier)) return false;
  if (status === 'past_due' || status === 'incomplete' || status === 'free_disabled') return true;
  return tier !== 'free' && status === 'active';
}

/** accounts §4: the payment method changes only with the card provider and a qualifying subscription. */
export function canChangePaymentMethod(
  provider: PaymentProviderKind,
  tier: SubscriptionTier,
  status: SubscriptionStatus,
): boolean {
  return provider === 'card' && isQualifyingSubscription(tier, status);
}

/** accounts §4 "Payment trouble": incomplete, past_due and free_disabled are blocked; enterprise never. */
export function isBillingBlocked(tier: SubscriptionTier, status: SubscriptionStatus): boolean {
  if (isEnterpriseTier(tier)) return false;
  return status === 'incomplete' || status === 'past_due' || status === 'free_disabled';
}

/** accounts §6: paid means not free or trial. */
export function isPaidTier(tier: SubscriptionTier): boolean {
  return tier !== 'free' && tier !== 'trial';
}

/** accounts §6: the extended allowance counts only when the subscription may extend and is active, or on enterprise. */
export function canUseCharacterExtension(input: {
  tier: SubscriptionTier;
  status: SubscriptionStatus;
  allowedToExtend: boolean;
}): boolean {
  if (input.tier === 'enterprise') return true;
  return input.allowedToExtend && input.status === 'active';
}

/** accounts §5, §9: the first-month offers are only for users never on a paid tier. */
export function isEligibleForFirstMonthOffer(
  previouslySubscribedTiers: readonly SubscriptionTier[],
): boolean {
  return !previouslySubscribedTiers.some(isPaidTier);
}

/** accounts §9: remaining = limit − used; -1 is unlimited. */
export function remainingCredits(characterLimit: number, characterCount: number): number {
  return characterLimit === -1 ? -1 : Math.max(0, characterLimit - characterCount);
}
