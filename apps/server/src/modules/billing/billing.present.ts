import {
  type BillingOverview,
  type HostedSession,
  type Invoice,
  type PaymentProviderKind,
  type PendingChange,
  type PromoValidation,
  tierDisplayNames,
} from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import type { InvoiceRow, SessionRow, StoredCard, StoredDiscount, SubscriptionRow } from './billing.tables';

/** An invoice as the API shows it (accounts §3 Invoice). */
export function toInvoice(row: InvoiceRow): Invoice {
  const discounts =
    row.discountPercentOff != null || row.discountAmountOff != null
      ? [{ discount_percent_off: row.discountPercentOff, discount_amount_off: row.discountAmountOff }]
      : [];
  return {
    invoice_id: row.id,
    amount_due_cents: row.amountDueCents,
    subtotal_cents: row.subtotalCents,
    tax_cents: 0,
    discount_percent_off: row.discountPercentOff,
    discount_amount_off: row.discountAmountOff,
    discounts,
    next_payment_attempt_unix: toUnixSeconds(row.nextPaymentAttemptAt ?? row.createdAt),
    payment_intent_status: row.paymentIntentStatus,
    payment_intent_statusses: row.paymentIntentStatus ? [row.paymentIntentStatus] : [],
    status: row.status,
    currency: row.currency,
    description: row.description,
    created_unix: toUnixSeconds(row.createdAt),
    paid_unix: row.paidAt ? toUnixSeconds(row.paidAt) : null,
  };
}

/** What changes at the period end: a cancellation or a scheduled plan change (the subscription's pending_change). */
export function presentPendingChange(sub: SubscriptionRow): PendingChange | null {
  if (!sub.currentPeriodEnd) return null;
  const timestamp_seconds = toUnixSeconds(sub.currentPeriodEnd);
  if (sub.cancelAtPeriodEnd) return { kind: 'cancellation', timestamp_seconds };
  if (sub.downgradeTo && sub.downgradeToPeriod) {
    return {
      kind: 'change',
      next_tier: sub.downgradeTo,
      next_billing_period: sub.downgradeToPeriod,
      timestamp_seconds,
    };
  }
  return null;
}

/** A card as the pages show it (never its test behaviour). */
function presentCard(card: StoredCard | null) {
  return card
    ? { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year }
    : null;
}

/** The discount the current period's invoice got, found by the service. */
export interface AppliedDiscount {
  invoice: InvoiceRow;
  amountOffCents: number;
  description: string;
}

/** The billing overview of a workspace; the rules' answers come from the service. */
export function presentBillingOverview(input: {
  sub: SubscriptionRow;
  provider: 'test' | 'stripe' | null;
  paymentProvider: PaymentProviderKind;
  canChangePaymentMethod: boolean;
  firstMonthOfferEligible: boolean;
  invoices: InvoiceRow[];
  appliedDiscount: AppliedDiscount | null;
  maxSeats: number;
}): BillingOverview {
  const { sub } = input;
  return {
    provider: input.provider ?? 'none',
    isolated_environment: input.provider === null,
    payment_provider: input.paymentProvider,
    can_change_payment_method: input.canChangePaymentMethod,
    card_payment_provider: sub.provider
      ? {
          current_period_end: sub.currentPeriodEnd ? toUnixSeconds(sub.currentPeriodEnd) : null,
          schedule:
            sub.downgradeTo && sub.downgradeToPeriod
              ? {
                  metadata: {
                    type: 'downgrade' as const,
                    downgrade_to: sub.downgradeTo,
                    downgrade_to_period: sub.downgradeToPeriod,
                  },
                }
              : null,
          cancel_at_period_end: sub.cancelAtPeriodEnd,
        }
      : null,
    payment_method: presentCard(sub.card),
    first_month_offer_eligible: input.firstMonthOfferEligible,
    previously_subscribed_tiers: sub.previouslySubscribedTiers,
    discount: sub.discount
      ? {
          code: sub.discount.code,
          percent_off: sub.discount.percentOff,
          amount_off: sub.discount.amountOff,
          months_left: sub.discount.monthsLeft,
        }
      : null,
    applied_discount: input.appliedDiscount
      ? {
          description: input.appliedDiscount.description,
          amount_off_cents: input.appliedDiscount.amountOffCents,
          invoice_id: input.appliedDiscount.invoice.id,
          period_end_unix: toUnixSeconds(input.appliedDiscount.invoice.periodEnd),
        }
      : null,
    invoices: input.invoices.map(toInvoice),
    max_seats: input.maxSeats,
  };
}

/** A hosted page as its page shows it. */
export function presentHostedSession(
  session: SessionRow,
  workspaceName: string,
  card: StoredCard | null,
  invoices: InvoiceRow[],
): HostedSession {
  return {
    session_id: session.id,
    kind: session.kind,
    status: session.status,
    workspace_name: workspaceName,
    plan_name: session.tier ? tierDisplayNames[session.tier] : null,
    billing_period: session.billingPeriod,
    currency: session.currency,
    amount_due_cents: session.amountDueCents,
    price_cents: session.priceCents,
    discount_description: session.discount?.description ?? null,
    last_error: session.lastError,
    payment_method: presentCard(card),
    invoices: invoices.map(toInvoice),
    return_url: session.returnUrl,
  };
}

/** A promo code's terms, or that `code` is not valid. */
export function presentPromoValidation(code: string, promo: StoredDiscount | null): PromoValidation {
  if (!promo) {
    return { valid: false, promocode: code, amount_off: null, percent_off: null, duration_in_months: null };
  }
  return {
    valid: true,
    promocode: promo.code,
    amount_off: promo.amountOff,
    percent_off: promo.percentOff,
    duration_in_months: promo.monthsLeft,
  };
}
