import type { SubscriptionStatus } from '@parla/contracts';
import Stripe from 'stripe';
import { AppError } from '../../platform/errors';
import type {
  CardOnFile,
  ChargeResult,
  ProviderInvoiceFacts,
  ProviderSubscriptionNow,
} from './billing-provider';

/** Stripe's objects and errors in the billing port's words: what the Stripe adapter reads of Stripe. */

export const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** The id of an expandable field (`"cus_…"` or `{ id: "cus_…" }`), or null. */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** The card of a payment method as the billing overview shows it (Stripe decides each charge: `succeeds`). */
export function cardOf(method: Stripe.PaymentMethod | string | null | undefined): CardOnFile | null {
  if (!method || typeof method === 'string' || !method.card) return null;
  const { brand, last4, exp_month, exp_year } = method.card;
  return { brand, last4, exp_month, exp_year, behaviour: 'succeeds' };
}

/** The one item of a Parla subscription (one price, quantity 1). */
export function itemOf(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscription.id} has no item`);
  return item;
}

/** Stripe's subscription status as ours; null for the ended ones (customer.subscription.deleted ends the plan). */
export function statusOf(status: Stripe.Subscription.Status): SubscriptionStatus | null {
  switch (status) {
    case 'active':
      return 'active';
    case 'trialing':
      return 'trialing';
    case 'past_due':
      return 'past_due';
    case 'incomplete':
      return 'incomplete';
    // Retries are over but the subscription is kept: still owing, still the plan.
    case 'unpaid':
    case 'paused':
      return 'past_due';
    default:
      return null;
  }
}

/**
 * A subscription as the port has it: its status in our words, the period of its item (Stripe keeps periods
 * on items), whether a schedule runs it, and its card when `default_payment_method` was expanded.
 */
export function subscriptionNow(subscription: Stripe.Subscription): ProviderSubscriptionNow {
  const item = itemOf(subscription);
  return {
    id: subscription.id,
    status: statusOf(subscription.status),
    currentPeriodStart: fromUnix(item.current_period_start),
    currentPeriodEnd: fromUnix(item.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    scheduled: idOf(subscription.schedule) !== null,
    card: cardOf(subscription.default_payment_method),
  };
}

/** The service period an invoice pays for: its lines' latest period (else the invoice's own). */
function invoicePeriod(invoice: Stripe.Invoice): { start: Date; end: Date } {
  let best: Stripe.InvoiceLineItem.Period | null = null;
  for (const line of invoice.lines.data) {
    if (!best || line.period.end > best.end) best = line.period;
  }
  return best
    ? { start: fromUnix(best.start), end: fromUnix(best.end) }
    : { start: fromUnix(invoice.period_start), end: fromUnix(invoice.period_end) };
}

/** The subscription an invoice belongs to. */
const invoiceSubscriptionId = (invoice: Stripe.Invoice) =>
  idOf(invoice.parent?.subscription_details?.subscription ?? null);

/** An invoice of a subscription in the port's words; null for an invoice outside a subscription. */
export function invoiceFacts(invoice: Stripe.Invoice): ProviderInvoiceFacts | null {
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (!subscriptionId || !invoice.id) return null;
  const { start, end } = invoicePeriod(invoice);
  return {
    id: invoice.id,
    subscriptionId,
    renewal: invoice.billing_reason === 'subscription_cycle',
    periodStart: start,
    periodEnd: end,
    subtotalCents: invoice.subtotal,
    totalCents: invoice.total,
    amountDueCents: invoice.amount_due,
    nextAttemptAt: invoice.next_payment_attempt ? fromUnix(invoice.next_payment_attempt) : null,
  };
}

/** A Stripe card decline as the engine's charge result; anything else is an error of the provider. */
export function declined(error: unknown): ChargeResult {
  if (error instanceof Stripe.errors.StripeCardError) return { ok: false, message: error.message };
  throw unavailable(error);
}

/** Network trouble and Stripe's own failures become a 503 the caller may retry; our bugs stay errors. */
export function unavailable(error: unknown): unknown {
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return new AppError('service_unavailable', 'The payment provider did not answer. Please try again.', {
      cause: error,
    });
  }
  return error;
}

export const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';
