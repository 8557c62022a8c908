import { type BillingPeriod, isPaidPlanId, planPriceCents } from '@parla/contracts';
import type { BillingProvider } from '../../providers/billing/billing-provider';
import {
  type BillingContext,
  type BillingDeps,
  billingContext,
  lockBillingState,
  notifyPaymentFailed,
  setWorkspaceTier,
  startCreditPeriod,
} from './billing.context';
import { addPeriod, describePlan, discounted, nextMonthlyReset, useDiscount } from './billing.pricing';
import {
  findInvoice,
  insertInvoice,
  listCreditResetsDue,
  listLapsedIncomplete,
  listPeriodsEnded,
  listRenewalRetriesDue,
  markInvoicePaid,
  saveSubscription,
  setNextPaymentAttempt,
  voidOpenFirstInvoices,
  withPreviousTier,
} from './billing.store';
import { endPlan, payInvoiceWithCard } from './billing-lifecycle.service';
import { expireLapsedSessions } from './billing-sessions.store';

/** A failed renewal is tried again three days later, three more times. */
const RETRY_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
const MAX_RENEWAL_ATTEMPTS = 4;

/**
 * The renewal job's work (issue 5): closes every period that has ended — a cancellation or a downgrade to
 * free ends the plan, a scheduled downgrade switches it, anything else renews it — issues and charges the
 * period's invoice (a failed charge makes the subscription past_due, retried every three days), resets
 * character_count and sets next_character_count_reset_unix; refreshes the monthly credits of free and
 * annual plans; lets unpaid first invoices lapse; retries open renewal invoices.
 */
export async function runBillingRenewals(deps: BillingDeps): Promise<{ renewed: number; reset: number }> {
  const provider = deps.provider;
  const now = deps.clock.now();
  let renewed = 0;
  let reset = 0;
  if (provider?.runsRenewals) {
    for (const workspaceId of await listPeriodsEnded(deps.db, now)) {
      await deps.events.transaction(async (tx, events) => {
        const state = await lockBillingState(tx, workspaceId);
        const ctx = billingContext(tx, events, state, now, null);
        // Several periods may have passed while the server was down: each is closed in turn.
        for (let guard = 0; guard < 36; guard++) {
          const end = ctx.state.sub.currentPeriodEnd;
          if (!end || end > now) break;
          await closePeriod(ctx, provider, end);
          renewed++;
        }
      });
    }
    for (const due of await listRenewalRetriesDue(deps.db, now)) {
      await deps.events.transaction(async (tx, events) => {
        const state = await lockBillingState(tx, due.workspaceId);
        // Read again under the lock: it may have been paid from the portal since the list was made.
        const invoice = await findInvoice(tx, due.workspaceId, due.id);
        if (invoice.status !== 'open') return;
        const ctx = billingContext(tx, events, state, now, null);
        if (await payInvoiceWithCard(ctx, invoice, provider)) return;
        const lastTry = invoice.attempts + 1 >= MAX_RENEWAL_ATTEMPTS;
        await setNextPaymentAttempt(
          tx,
          invoice.id,
          lastTry ? null : new Date(now.getTime() + RETRY_AFTER_MS),
        );
        // The last retry failed: the plan ends, and the workspace stays disabled (free_disabled, accounts
        // §4) until the open invoice is paid.
        if (lastTry && ctx.state.sub.status === 'past_due') await endPlan(ctx, provider, 'free_disabled');
      });
    }
    for (const workspaceId of await listLapsedIncomplete(deps.db, now)) {
      await deps.events.transaction(async (tx, _events) => {
        const state = await lockBillingState(tx, workspaceId);
        const expiry = state.sub.incompleteExpiresAt;
        if (state.sub.status !== 'incomplete' || !expiry || expiry > now) return;
        await voidOpenFirstInvoices(tx, workspaceId);
        await saveSubscription(tx, state, { status: 'free', incompleteExpiresAt: null }, now);
      });
    }
  }
  // Monthly credit refresh where no billing period ended: free plans, and annual plans between renewals.
  for (const id of await listCreditResetsDue(deps.db, now)) {
    await deps.events.transaction(async (tx, events) => {
      const state = await lockBillingState(tx, id);
      const due = state.nextCreditResetAt;
      if (due > now) return;
      // A billing period ending by then resets the credits when it closes (here, or by the provider's
      // webhook): resetting now as well would reset twice.
      const periodEnd = state.sub.currentPeriodEnd;
      if (periodEnd && periodEnd.getTime() <= due.getTime() + 60_000) return;
      // Monthly boundaries counted from the period's start (or the workspace's creation).
      const anchor = state.sub.currentPeriodStart ?? state.workspace.createdAt;
      await startCreditPeriod({ tx, events }, state, nextMonthlyReset(anchor, now), now);
      reset++;
    });
  }
  await expireLapsedSessions(deps.db, now);
  return { renewed, reset };
}

/** Closes the period ending at `end` and opens the next, or ends the plan. */
async function closePeriod(ctx: BillingContext, provider: BillingProvider, end: Date): Promise<void> {
  const { state } = ctx;
  const { sub } = state;
  const endsPlan = sub.cancelAtPeriodEnd || sub.downgradeTo === 'free' || !sub.billingPeriod;
  if (endsPlan) {
    await endPlan(ctx, provider, 'free');
    await startCreditPeriod(ctx, state, addPeriod(end, 'month'), ctx.now);
    return;
  }
  const tier = sub.downgradeTo ?? state.workspace.tier;
  const period = sub.downgradeToPeriod ?? (sub.billingPeriod as BillingPeriod);
  if (!isPaidPlanId(tier)) {
    // Enterprise and trial renew by contract, not by card: the period rolls on.
    await saveSubscription(
      ctx.tx,
      state,
      { currentPeriodStart: end, currentPeriodEnd: addPeriod(end, period) },
      ctx.now,
    );
    await startCreditPeriod(ctx, state, addPeriod(end, 'month'), ctx.now);
    return;
  }
  const subtotal = planPriceCents(tier, period, sub.currency);
  const discount = useDiscount(sub.discount);
  const nextEnd = addPeriod(end, period);
  const invoice = await insertInvoice(ctx.tx, {
    workspaceId: state.workspace.id,
    kind: 'subscription_cycle',
    tier,
    billingPeriod: period,
    currency: sub.currency,
    description: describePlan(tier, period),
    subtotalCents: subtotal,
    amountDueCents: discounted(subtotal, discount.now),
    discountPercentOff: discount.now?.percentOff ?? null,
    discountAmountOff: discount.now?.amountOff ?? null,
    periodStart: end,
    periodEnd: nextEnd,
    paid: false,
    now: ctx.now,
  });
  await setWorkspaceTier(ctx, state, tier);
  const charged = await provider.charge(ctx, invoice);
  if (charged.ok) await markInvoicePaid(ctx.tx, invoice.id, ctx.now);
  else await setNextPaymentAttempt(ctx.tx, invoice.id, new Date(ctx.now.getTime() + RETRY_AFTER_MS));
  await saveSubscription(
    ctx.tx,
    state,
    {
      status: charged.ok ? 'active' : 'past_due',
      billingPeriod: period,
      currentPeriodStart: end,
      currentPeriodEnd: nextEnd,
      downgradeTo: null,
      downgradeToPeriod: null,
      discount: discount.left,
      previouslySubscribedTiers: withPreviousTier(sub.previouslySubscribedTiers, tier),
    },
    ctx.now,
  );
  if (!charged.ok) await notifyPaymentFailed(ctx);
  await startCreditPeriod(ctx, state, addPeriod(end, 'month'), ctx.now);
}
