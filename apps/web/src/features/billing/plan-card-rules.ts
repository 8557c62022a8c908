import {
  type Currency,
  type CurrentPlan,
  formatPrice,
  isPlanButtonDisabled,
  type PlanAction,
  type PlanButtonContext,
  type PlanOffer,
  type PricePeriod,
  planAction,
  planActionLabels,
  planBadge,
} from '@parla/contracts';

/** Who looks at the plan cards: nobody signed in, or a workspace with its plan and button context. */
export type PlanViewer =
  | { loggedIn: false }
  | { loggedIn: true; current: CurrentPlan; context: Omit<PlanButtonContext, 'loggedIn'> };

export type PlanCardButton =
  /** accounts §4: logged-out users are sent to sign-up. */
  | { kind: 'signUp'; label: string }
  | { kind: 'contactSales'; label: 'Contact sales' }
  | { kind: 'action'; action: PlanAction; label: string; disabled: boolean };

export interface PlanCardState {
  button: PlanCardButton;
  badge: 'Will be canceled' | 'Will be downgraded' | null;
  /** The workspace is on this plan and period (the free card for any period). */
  isCurrent: boolean;
}

/** Actions that only the plan the workspace is on can offer (accounts §4 rules 1–3). */
const currentPlanActions: readonly PlanAction[] = ['renewSubscription', 'none', 'cancelSubscription'];

/**
 * What one card shows for a period (accounts §4): the action with its label and disabled state, and the
 * "Will be canceled" / "Will be downgraded" badge. Enterprise is sold by contract: "Contact sales", or
 * "Subscribed" for a workspace already on it.
 */
export function planCardState(offer: PlanOffer, period: PricePeriod, viewer: PlanViewer): PlanCardState {
  if (offer.enterprise || offer.plan_id === 'enterprise') {
    const onEnterprise = viewer.loggedIn && viewer.current.tier === 'enterprise';
    return {
      button: onEnterprise
        ? { kind: 'action', action: 'none', label: planActionLabels.none, disabled: true }
        : { kind: 'contactSales', label: 'Contact sales' },
      badge: null,
      isCurrent: onEnterprise,
    };
  }
  if (!viewer.loggedIn) {
    return {
      button: { kind: 'signUp', label: offer.plan_id === 'free' ? 'Sign up' : planActionLabels.create },
      badge: null,
      isCurrent: false,
    };
  }
  const target = { tier: offer.plan_id, period };
  const action = planAction(target, viewer.current);
  // A trial workspace sees "Subscribe" on every card, but there is no checkout for the free plan.
  const noCheckout = action === 'create' && offer.plan_id === 'free';
  return {
    button: {
      kind: 'action',
      action,
      label: planActionLabels[action],
      disabled: noCheckout || isPlanButtonDisabled(action, target, { ...viewer.context, loggedIn: true }),
    },
    badge: planBadge(target, viewer.current),
    isCurrent: currentPlanActions.includes(action),
  };
}

/** How a card shows its price for the selected period (accounts §9 price display). */
export interface OfferPrice {
  /** The price to pay per month, or "Custom". */
  amount: string;
  /** The undiscounted monthly price, struck through beside a discounted amount. */
  original: string | null;
  /** "/month" after the amount; null for a custom price. */
  unit: '/month' | null;
  /** What is billed, when that differs from the amount: "Billed $220 yearly", "Then $22/month". */
  note: string | null;
  /** The offer's own message: "First month 50% off", "2 months free". */
  discountMessage: string | null;
}

/**
 * The price block of a card. Monthly: the first-month price when discounted, then the regular price.
 * Yearly: the per-month figure of the annual total, the monthly price struck through, and the total
 * billed. Plans with no yearly price (free) show their monthly price; enterprise is custom.
 */
export function offerPrice(
  offer: PlanOffer,
  period: PricePeriod,
  currency: Currency = offer.currency,
): OfferPrice {
  const { monthly, yearly } = offer.pricing;
  const money = (value: number) => formatPrice(value, currency);
  if (period === 'yearly' && yearly) {
    const perMonth = yearly.discounted_price ?? Math.round((yearly.price / 12) * 100) / 100;
    return {
      amount: money(perMonth),
      original: monthly && monthly.price > perMonth ? money(monthly.price) : null,
      unit: '/month',
      note: `Billed ${money(yearly.price)} yearly`,
      discountMessage: yearly.discount_message,
    };
  }
  if (!monthly) {
    return { amount: 'Custom', original: null, unit: null, note: null, discountMessage: null };
  }
  const discounted = monthly.discounted_price !== null && monthly.discounted_price < monthly.price;
  return {
    amount: money(discounted ? (monthly.discounted_price ?? monthly.price) : monthly.price),
    original: discounted ? money(monthly.price) : null,
    unit: '/month',
    note: discounted ? `Then ${money(monthly.price)}/month` : null,
    discountMessage: monthly.discount_message,
  };
}
