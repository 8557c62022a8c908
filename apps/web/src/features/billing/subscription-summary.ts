import {
  type BillingOverview,
  type BillingPeriod,
  type Currency,
  formatPrice,
  type PendingChange,
  pricePeriodOf,
  remainingCredits,
  type SubscriptionStatus,
  tierDisplayNames,
} from '@parla/contracts';
import { formatDate, fromUnixSeconds } from '../../lib/format-date';

const numbers = new Intl.NumberFormat('en-US');

/** A status as the summary names it; the blocked ones say what is wrong. */
export const statusLabels: Record<SubscriptionStatus, string> = {
  active: 'Active',
  trialing: 'Trial',
  incomplete: 'Payment incomplete',
  past_due: 'Payment past due',
  free: 'Free',
  free_disabled: 'Disabled',
};

export function periodLabel(period: BillingPeriod | null | undefined): string | null {
  if (!period) return null;
  return pricePeriodOf(period) === 'yearly' ? 'Yearly' : 'Monthly';
}

/** What the pending change means, in a sentence (accounts §4 cancellation and scheduled downgrade). */
export function pendingChangeText(
  pending: PendingChange | null,
  formatOptions?: { timeZone?: string },
): string | null {
  if (!pending) return null;
  const when = formatDate(fromUnixSeconds(pending.timestamp_seconds), formatOptions);
  if (pending.kind === 'cancellation') {
    return `Your subscription ends on ${when}; then the workspace moves to the Free plan.`;
  }
  const period = pricePeriodOf(pending.next_billing_period) === 'yearly' ? 'yearly' : 'monthly';
  return `Your plan changes to ${tierDisplayNames[pending.next_tier]} (${period}) on ${when}.`;
}

export interface CreditsSummary {
  used: string;
  /** "Unlimited" for -1 (accounts §9). */
  limit: string;
  /** Credits left, or "Unlimited". */
  remaining: string;
  /** Share used, 0–100; null when unlimited. */
  percentUsed: number | null;
}

/** accounts §9: remaining = limit − used; -1 means unlimited. */
export function creditsSummary(characterCount: number, characterLimit: number): CreditsSummary {
  const remaining = remainingCredits(characterLimit, characterCount);
  if (characterLimit === -1) {
    return {
      used: numbers.format(characterCount),
      limit: 'Unlimited',
      remaining: 'Unlimited',
      percentUsed: null,
    };
  }
  const percent =
    characterLimit > 0 ? Math.min(100, Math.round((characterCount / characterLimit) * 100)) : 100;
  return {
    used: numbers.format(characterCount),
    limit: numbers.format(characterLimit),
    remaining: numbers.format(remaining),
    percentUsed: percent,
  };
}

/**
 * When this period's count starts again (accounts §3 next_character_count_reset_unix), as "Resets on
 * Dec 27, 2026"; null when the plan names no reset.
 */
export function creditResetText(
  resetUnix: number | null | undefined,
  { locale = 'en-US', timeZone }: { locale?: string; timeZone?: string } = {},
): string | null {
  if (!resetUnix) return null;
  const day = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', year: 'numeric', timeZone });
  return `Resets on ${day.format(fromUnixSeconds(resetUnix))}`;
}

/** The discount on the subscription: "special-offer-30: 30% off, 2 months left". */
export function discountText(discount: NonNullable<BillingOverview['discount']>, currency: Currency): string {
  const off =
    discount.percent_off !== null
      ? `${discount.percent_off}% off`
      : `${formatPrice((discount.amount_off ?? 0) / 100, currency)} off`;
  const left =
    discount.months_left > 0
      ? `, ${discount.months_left} month${discount.months_left === 1 ? '' : 's'} left`
      : '';
  return `${discount.code}: ${off}${left}`;
}

/**
 * The "Discount" of the subscription summary (issue 26 item 7): the discount this period was paid with
 * ("First month 50% off (saved $11 this period)") and what is left of one for later invoices, or that the
 * next invoice is at full price; null when there is neither (the summary says "None").
 */
export function discountSummary(
  overview: Pick<BillingOverview, 'discount' | 'applied_discount'>,
  currency: Currency,
  hasNextInvoice: boolean,
): { applied: string | null; next: string | null } | null {
  const { applied_discount: applied, discount } = overview;
  if (!applied && !discount) return null;
  return {
    applied: applied
      ? `${applied.description} (saved ${formatPrice(applied.amount_off_cents / 100, currency)} this period)`
      : null,
    next: discount
      ? `${applied ? 'Next invoices' : 'On the next invoices'}: ${discountText(discount, currency)}`
      : hasNextInvoice
        ? 'The next invoice is at full price.'
        : null,
  };
}
