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
import { presentBillingOverview, presentPendingChange, toInvoice } from './billing.present';
import { addPeriod, describePlan, discounted, useDiscount } from './billing.pricing';
import { type BillingState, listInvoices, loadBillingState, openInvoices } from './billing.store';
import type { InvoiceRow } from './billing.tables';

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

export async function getBillingOverview(deps: BillingDeps, workspaceId: string): Promise<BillingOverview> {
  const state = await loadBillingState(deps.db, workspaceId);
  const { sub, workspace } = state;
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
    invoices: await listInvoices(deps.db, workspaceId),
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
