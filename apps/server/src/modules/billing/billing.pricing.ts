import {
  type BillingPeriod,
  type Currency,
  isPaidPlanId,
  type PaidPlanId,
  PLAN_NUMBERS,
  planPriceCents,
  type SubscriptionTier,
  tierDisplayNames,
} from '@parla/contracts';
import type { StoredDiscount } from './billing.tables';

/** The code the first-month offer of accounts §9 goes by on invoices (not a promo code anyone types). */
export const FIRST_MONTH_CODE = 'first-month';

/** The end of a period that starts at `start`: one calendar month or year on (the 31st clamps to the month's end). */
export function addPeriod(start: Date, period: BillingPeriod | 'month'): Date {
  return addMonths(start, period === 'annual_period' ? 12 : 1);
}

/**
 * The first monthly boundary of `anchor` after `after`: anchor + k months, each counted from the anchor,
 * so a period started on the 31st resets on the 31st (or the month's last day), never drifting to the 28th.
 */
export function nextMonthlyReset(anchor: Date, after: Date): Date {
  for (let k = 1; k < 12 * 200; k++) {
    const boundary = addMonths(anchor, k);
    if (boundary > after) return boundary;
  }
  return addMonths(after, 1);
}

/** `start` moved `months` calendar months on, the day clamped to the target month's last day. */
export function addMonths(start: Date, months: number): Date {
  const end = new Date(start.getTime());
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

/** A discount's effect on a subtotal, in cents, never below zero. */
export function discounted(
  subtotalCents: number,
  discount: Pick<StoredDiscount, 'percentOff' | 'amountOff'> | null,
): number {
  if (!discount) return subtotalCents;
  if (discount.percentOff != null)
    return Math.max(0, Math.round(subtotalCents * (1 - discount.percentOff / 100)));
  return Math.max(0, subtotalCents - (discount.amountOff ?? 0));
}

/** "SPRING: 20% off", "SPRING: $5.00 off"; the terms alone ("20% off") for a discount with no code. */
export function describeDiscount(
  discount: Pick<StoredDiscount, 'percentOff' | 'amountOff'> & { code?: string | null },
  currency: Currency,
): string {
  const terms =
    discount.percentOff != null
      ? `${discount.percentOff}% off`
      : `${currency === 'usd' ? '$' : '€'}${((discount.amountOff ?? 0) / 100).toFixed(2)} off`;
  return discount.code ? `${discount.code}: ${terms}` : terms;
}

/**
 * What the first invoice of a new subscription asks: the period's price, less a promo code, or else the
 * first-month offer (accounts §9: Starter $1, Creator $11, monthly, only for users never on a paid tier)
 * unless `no_default_promocode` asks for the full price. A promo code and the offer do not stack.
 */
export function firstInvoice(input: {
  plan: PaidPlanId;
  period: BillingPeriod;
  currency: Currency;
  firstMonthEligible: boolean;
  noDefaultPromocode: boolean;
  promo: StoredDiscount | null;
}): {
  priceCents: number;
  amountDueCents: number;
  discount: (StoredDiscount & { description: string }) | null;
} {
  const priceCents = planPriceCents(input.plan, input.period, input.currency);
  if (input.promo) {
    return {
      priceCents,
      amountDueCents: discounted(priceCents, input.promo),
      discount: { ...input.promo, description: describeDiscount(input.promo, input.currency) },
    };
  }
  const offer = PLAN_NUMBERS[input.plan].firstMonthCents;
  if (offer && input.period === 'monthly_period' && input.firstMonthEligible && !input.noDefaultPromocode) {
    const amountOff = priceCents - offer[input.currency];
    const message = PLAN_NUMBERS[input.plan].firstMonthMessage ?? 'First month offer';
    return {
      priceCents,
      amountDueCents: offer[input.currency],
      discount: { code: FIRST_MONTH_CODE, percentOff: null, amountOff, monthsLeft: 1, description: message },
    };
  }
  return { priceCents, amountDueCents: priceCents, discount: null };
}

/**
 * An upgrade is charged now (issue 5): the new plan's full period from now, less the unused part of what
 * was paid for the current period, prorated by the second.
 */
export function prorateUpgrade(input: {
  currentTier: SubscriptionTier;
  currentPeriod: BillingPeriod;
  periodStart: Date;
  periodEnd: Date;
  now: Date;
  target: PaidPlanId;
  targetPeriod: BillingPeriod;
  currency: Currency;
}): { subtotalCents: number; unusedCreditCents: number; newPriceCents: number } {
  const newPriceCents = planPriceCents(input.target, input.targetPeriod, input.currency);
  const currentPrice = isPaidPlanId(input.currentTier)
    ? planPriceCents(input.currentTier, input.currentPeriod, input.currency)
    : 0;
  const total = input.periodEnd.getTime() - input.periodStart.getTime();
  const left = Math.min(total, Math.max(0, input.periodEnd.getTime() - input.now.getTime()));
  const unusedCreditCents = total > 0 ? Math.round((currentPrice * left) / total) : 0;
  return { subtotalCents: Math.max(0, newPriceCents - unusedCreditCents), unusedCreditCents, newPriceCents };
}

/** The discount an invoice gets now, and what is left of it for the invoices after. */
export function useDiscount(discount: StoredDiscount | null): {
  now: StoredDiscount | null;
  left: StoredDiscount | null;
} {
  if (!discount || discount.monthsLeft <= 0) return { now: null, left: null };
  return {
    now: discount,
    left: discount.monthsLeft > 1 ? { ...discount, monthsLeft: discount.monthsLeft - 1 } : null,
  };
}

/** Adds a used promo or discount code (the first-month offer is not a code). */
export function withRedeemed(codes: string[], code: string | null | undefined): string[] {
  if (!code || code === FIRST_MONTH_CODE || codes.includes(code)) return codes;
  return [...codes, code];
}

/** An invoice line's description of a plan and its period. */
export function describePlan(tier: SubscriptionTier, period: BillingPeriod): string {
  return `${tierDisplayNames[tier]} (${period === 'annual_period' ? 'yearly' : 'monthly'})`;
}
