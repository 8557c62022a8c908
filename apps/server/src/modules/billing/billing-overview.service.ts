import {
  type BillingOverview,
  canChangePaymentMethod,
  isEligibleForFirstMonthOffer,
  isPaidPlanId,
  paymentProviderOf,
  planPriceCents,
  tierLimits,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import type { BillingDeps } from './billing.context';
import {
  type AppliedDiscount,
  presentBillingOverview,
  presentPendingChange,
  toInvoice,
} from './billing.present';
import { addPeriod, describeDiscount, describePlan, discounted, useDiscount } from './billing.pricing';
import { listInvoices, loadBillingState, openInvoices } from './billing.store';
import type { BillingState, InvoiceRow } from './billing.tables';
import { findCheckoutDiscountOfInvoice } from './billing-sessions.store';

/** The invoice the next period end will bring, when the subscription renews (accounts §3 next_invoice). */
function upcomingInvoice(state: BillingState): InvoiceRow | null {
  const { sub, workspace } = state;
  if (!sub.currentPeriodEnd || !sub.billingPeriod || sub.cancelAtPeriodEnd) return null;
  const tier = sub.downgradeTo ?? workspace.tier;
  const period = sub.downgradeToPeriod ?? sub.billingPeriod;
  if (!isPaidPlanId(tier)) return null;
  const subtotal = planPriceCents(tier, period, sub.currency);
  const discount = useDiscount(sub.discount).now;
  return {
    id: 'upcoming',
    workspaceId: workspace.id,
    kind: 'subscription_cycle',
    status: 'open',
    currency: sub.currency,
    tier,
    billingPeriod: period,
    description: describePlan(tier, period),
    subtotalCents: subtotal,
    discountPercentOff: discount?.percentOff ?? null,
    discountAmountOff: discount?.amountOff ?? null,
    amountDueCents: discounted(subtotal, discount),
    periodStart: sub.currentPeriodEnd,
    periodEnd: addPeriod(sub.currentPeriodEnd, period),
    paymentIntentStatus: null,
    attempts: 0,
    nextPaymentAttemptAt: sub.currentPeriodEnd,
    providerInvoiceId: null,
    createdAt: sub.currentPeriodEnd,
    paidAt: null,
  };
}

/** The billing half of `GET /v1/user/subscription`. */
export async function subscriptionBilling(db: Db, workspaceId: string) {
  const state = await loadBillingState(db, workspaceId);
  const open = await openInvoices(db, workspaceId);
  const next = upcomingInvoice(state);
  return {
    state,
    next_invoice: next ? toInvoice(next) : null,
    open_invoices: open.map(toInvoice),
    has_open_invoices: open.length > 0,
    pending_change: presentPendingChange(state.sub),
  };
}

/**
 * The discount the current period was paid with (issue 26 item 7): the newest paid invoice of the plan whose
 * period runs now, when it was discounted, described by the checkout's own words ("First month 50% off"),
 * else by the code still running, else by its share or amount.
 */
async function appliedDiscount(
  deps: BillingDeps,
  state: BillingState,
  invoices: readonly InvoiceRow[],
): Promise<AppliedDiscount | null> {
  if (!isPaidPlanId(state.workspace.tier)) return null;
  const now = deps.clock.now().getTime();
  const current = invoices
    .filter(
      (invoice) =>
        invoice.status === 'paid' &&
        invoice.periodStart.getTime() <= now &&
        now < invoice.periodEnd.getTime(),
    )
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  if (!current) return null;
  const amountOffCents = current.subtotalCents - current.amountDueCents;
  const discount = { percentOff: current.discountPercentOff, amountOff: current.discountAmountOff };
  if (amountOffCents <= 0 || (discount.percentOff == null && discount.amountOff == null)) return null;
  const checkout = await findCheckoutDiscountOfInvoice(deps.db, current.id);
  const running = state.sub.discount;
  const sameTerms =
    running && running.percentOff === discount.percentOff && running.amountOff === discount.amountOff;
  return {
    invoice: current,
    amountOffCents,
    description: checkout?.description ?? describeDiscount(sameTerms ? running : discount, current.currency),
  };
}

export async function getBillingOverview(deps: BillingDeps, workspaceId: string): Promise<BillingOverview> {
  const state = await loadBillingState(deps.db, workspaceId);
  const { sub, workspace } = state;
  const invoices = await listInvoices(deps.db, workspaceId);
  const paymentProvider = paymentProviderOf({
    cardPaymentProvider: sub.provider,
    gcpMarketplacePaymentDetails: sub.gcpMarketplacePaymentDetails,
    consolidatedBilling: sub.consolidatedBilling,
  });
  return presentBillingOverview({
    sub,
    provider: deps.provider?.name ?? null,
    paymentProvider,
    canChangePaymentMethod: canChangePaymentMethod(paymentProvider, workspace.tier, sub.status),
    firstMonthOfferEligible: isEligibleForFirstMonthOffer(sub.previouslySubscribedTiers),
    invoices,
    appliedDiscount: await appliedDiscount(deps, state, invoices),
    maxSeats: tierLimits[workspace.tier].maxSeats,
  });
}

/**
 * A workspace's plan as the user document shows it: the workspace, its subscription (a default one when
 * it never had a paid plan) and when its credits next start afresh.
 */
export function subscriptionOf(db: Db, workspaceId: string): Promise<BillingState> {
  return loadBillingState(db, workspaceId);
}
