import { type BillingPeriod, type Currency, isPaidPlanId, type PaidPlanId } from '@parla/contracts';
import type { BillingProvider } from '../../providers/billing/billing-provider';
import type { BillingContext } from './billing.context';
import { setWorkspaceTier, startCreditPeriod } from './billing.context';
import { addPeriod, describePlan, useDiscount, withRedeemed } from './billing.pricing';
import {
  countFailedCharge,
  insertInvoice,
  markInvoicePaid,
  openInvoices,
  saveSubscription,
  voidOpenFirstInvoices,
  withPreviousTier,
} from './billing.store';
import type { InvoiceRow, SessionRow, StoredCard, StoredDiscount } from './billing.tables';
import {
  expireOpenCheckouts,
  findCheckoutDiscountOfInvoice,
  setSessionInvoice,
} from './billing-sessions.store';

/**
 * How a plan starts, is paid and ends: shared by the hosted checkout, the renewals and the Stripe webhook,
 * each in its own transaction on the locked workspace (BillingContext).
 */

/** A paid first invoice: the plan starts now, with a fresh credit period. */
export async function activateFromCheckout(
  ctx: BillingContext,
  session: SessionRow,
  card: StoredCard | null,
): Promise<void> {
  if (!session.tier || !session.billingPeriod || !isPaidPlanId(session.tier)) return;
  const { tier, billingPeriod } = session;
  const periodEnd = addPeriod(ctx.now, billingPeriod);
  if (session.invoiceId) {
    await markInvoicePaid(ctx.tx, session.invoiceId, ctx.now);
  } else {
    const invoice = await insertInvoice(ctx.tx, {
      workspaceId: session.workspaceId,
      kind: 'subscription_create',
      tier,
      billingPeriod,
      currency: session.currency,
      description: describePlan(tier, billingPeriod),
      subtotalCents: session.priceCents ?? 0,
      amountDueCents: session.amountDueCents ?? 0,
      discountAmountOff: session.discount?.amountOff ?? null,
      discountPercentOff: session.discount?.percentOff ?? null,
      periodStart: ctx.now,
      periodEnd,
      paid: true,
      now: ctx.now,
    });
    // The checkout names the invoice it paid: the overview reads the offer's words from it (issue 26 item 7).
    await setSessionInvoice(ctx.tx, session.id, invoice.id);
  }
  await startPlan(ctx, {
    tier,
    billingPeriod,
    currency: session.currency,
    card,
    // A promo code lasting several months keeps discounting the renewals.
    discount: session.discount ? useDiscount(session.discount).left : null,
    redeemedCode: session.discount?.code ?? null,
  });
}

async function startPlan(
  ctx: BillingContext,
  plan: {
    tier: PaidPlanId;
    billingPeriod: BillingPeriod;
    currency: Currency;
    card: StoredCard | null;
    discount: StoredDiscount | null;
    /** The promo code the first invoice used, redeemed now. */
    redeemedCode?: string | null;
  },
): Promise<void> {
  await setWorkspaceTier(ctx, ctx.state, plan.tier);
  await startCreditPeriod(ctx, ctx.state, addPeriod(ctx.now, 'month'), ctx.now);
  // The plan is set: any other checkout of this workspace is moot, and any other unpaid first invoice void.
  await expireOpenCheckouts(ctx.tx, ctx.state.workspace.id);
  await voidOpenFirstInvoices(ctx.tx, ctx.state.workspace.id);
  await saveSubscription(
    ctx.tx,
    ctx.state,
    {
      status: 'active',
      billingPeriod: plan.billingPeriod,
      currency: plan.currency,
      currentPeriodStart: ctx.now,
      currentPeriodEnd: addPeriod(ctx.now, plan.billingPeriod),
      cancelAtPeriodEnd: false,
      downgradeTo: null,
      downgradeToPeriod: null,
      previouslySubscribedTiers: withPreviousTier(ctx.state.sub.previouslySubscribedTiers, plan.tier),
      provider: ctx.state.sub.provider ?? 'test',
      ...(plan.card ? { card: plan.card } : {}),
      discount: plan.discount,
      incompleteExpiresAt: null,
      redeemedCodes: withRedeemed(ctx.state.sub.redeemedCodes, plan.redeemedCode),
    },
    ctx.now,
  );
}

/** Charges an open invoice with the card on file; a paid invoice settles what it was for. */
export async function payInvoiceWithCard(
  ctx: BillingContext,
  invoice: InvoiceRow,
  provider: BillingProvider,
): Promise<boolean> {
  const result = await provider.charge(ctx, invoice);
  if (!result.ok) {
    await countFailedCharge(ctx.tx, invoice.id);
    return false;
  }
  await markInvoicePaid(ctx.tx, invoice.id, ctx.now);
  if (
    invoice.kind === 'subscription_create' &&
    ctx.state.sub.status === 'incomplete' &&
    isPaidPlanId(invoice.tier)
  ) {
    // The checkout's promo keeps discounting the invoices after this one.
    const discount = await findCheckoutDiscountOfInvoice(ctx.tx, invoice.id);
    await startPlan(ctx, {
      tier: invoice.tier,
      billingPeriod: invoice.billingPeriod,
      currency: invoice.currency,
      card: null,
      discount: discount ? useDiscount(discount).left : null,
      redeemedCode: discount?.code ?? null,
    });
  } else {
    await clearPaymentTroubleIfPaidUp(ctx);
  }
  return true;
}

/**
 * With nothing left owed, payment trouble ends: a past-due plan is active again, and a plan that ended
 * unpaid (free_disabled) leaves a plain free workspace.
 */
export async function clearPaymentTroubleIfPaidUp(ctx: BillingContext): Promise<void> {
  const { status } = ctx.state.sub;
  if (status !== 'past_due' && status !== 'free_disabled') return;
  if ((await openInvoices(ctx.tx, ctx.state.workspace.id)).length > 0) return;
  await saveSubscription(ctx.tx, ctx.state, { status: status === 'past_due' ? 'active' : 'free' }, ctx.now);
}

/** Back to free: `free`, or `free_disabled` when the plan ended unpaid. */
export async function endPlan(
  ctx: BillingContext,
  provider: BillingProvider,
  status: 'free' | 'free_disabled',
): Promise<void> {
  if (ctx.state.sub.downgradeTo) await provider.scheduleDowngrade(ctx, null);
  await setWorkspaceTier(ctx, ctx.state, 'free');
  await saveSubscription(
    ctx.tx,
    ctx.state,
    {
      status,
      billingPeriod: null,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      downgradeTo: null,
      downgradeToPeriod: null,
      discount: null,
    },
    ctx.now,
  );
}
