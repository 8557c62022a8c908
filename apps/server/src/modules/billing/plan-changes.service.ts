import {
  type BillingPeriod,
  type CurrentPlan,
  type PaidPlanId,
  planAction,
  planPriceCents,
  pricePeriodOf,
  type SubscriptionChangePreview,
  type SubscriptionTier,
  tierDisplayNames,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import {
  type BillingCaller,
  type BillingDeps,
  conflict,
  idempotent,
  requirePaidSubscription,
  requireProvider,
  setNextCreditReset,
  setWorkspaceTier,
  withLockedState,
} from './billing.context';
import { addPeriod, discounted, prorateUpgrade, useDiscount, withRedeemed } from './billing.pricing';
import {
  insertInvoice,
  loadBillingState,
  markInvoicePaid,
  saveSubscription,
  voidInvoice,
  withPreviousTier,
} from './billing.store';
import type { BillingState } from './billing.tables';
import { findPromo } from './promo-codes.service';

/**
 * Changes to a running subscription (accounts §4): upgrade now (charged prorated), downgrade or cancel at
 * the period end, take a scheduled change back, check the card on file.
 */

function currentPlanOf(state: BillingState): CurrentPlan {
  const { sub, workspace } = state;
  return {
    tier: workspace.tier,
    period: sub.billingPeriod ? pricePeriodOf(sub.billingPeriod) : null,
    pendingCancellation: sub.cancelAtPeriodEnd,
    pendingDowngrade:
      sub.downgradeTo && sub.downgradeToPeriod
        ? { tier: sub.downgradeTo, period: pricePeriodOf(sub.downgradeToPeriod) }
        : null,
  };
}

type ChangeBody = {
  subscription_type: 'free' | PaidPlanId;
  billing_period: BillingPeriod;
  promocode?: string | null | undefined;
};

/**
 * What an upgrade costs now: the new plan's full period from now, less the unused part of the current
 * one, then the discount (a promo code given with it, else the subscription's own). One rule for the
 * preview and the change itself.
 */
async function upgradeQuote(db: Db, state: BillingState, body: ChangeBody, now: Date) {
  const { sub } = state;
  const proration = prorateUpgrade({
    currentTier: state.workspace.tier,
    currentPeriod: sub.billingPeriod as BillingPeriod,
    periodStart: sub.currentPeriodStart ?? now,
    periodEnd: sub.currentPeriodEnd as Date,
    now,
    target: body.subscription_type as PaidPlanId,
    targetPeriod: body.billing_period,
    currency: sub.currency,
  });
  const promo = body.promocode ? await findPromo(db, body.promocode, now, sub.redeemedCodes) : null;
  const discount = promo ? useDiscount(promo) : useDiscount(sub.discount);
  return { proration, promo, discount, amountDueCents: discounted(proration.subtotalCents, discount.now) };
}

/** The refusals a change meets whether it is previewed or made; answers what the change is. */
function checkChange(state: BillingState, body: ChangeBody): 'upgrade' | 'downgrade' {
  requirePaidSubscription(state);
  const target = { tier: body.subscription_type, period: pricePeriodOf(body.billing_period) };
  const action = planAction(target, currentPlanOf(state));
  if (action === 'downgrade') {
    if (body.promocode) {
      throw conflict('A promo code applies to a subscription or an upgrade, not to a downgrade.');
    }
    return 'downgrade';
  }
  if (action !== 'upgrade' || body.subscription_type === 'free') {
    throw conflict('You are already on this plan: nothing to change.');
  }
  if (state.sub.status !== 'active') {
    throw conflict('Your subscription must be active to upgrade: pay the open invoice first.');
  }
  return 'upgrade';
}

/**
 * `POST /v1/billing/preview-subscription-change` (issue 18): what the change would charge now, prorated,
 * or when a downgrade would take effect — shown before the person confirms. Changes nothing.
 */
export async function previewSubscriptionChange(
  deps: BillingDeps,
  caller: BillingCaller,
  body: ChangeBody,
): Promise<SubscriptionChangePreview> {
  requireProvider(deps);
  const state = await loadBillingState(deps.db, caller.workspaceId);
  const now = deps.clock.now();
  const change = checkChange(state, body);
  const { sub } = state;
  const periodEnd = sub.currentPeriodEnd ?? now;
  if (change === 'downgrade') {
    return {
      change,
      currency: sub.currency,
      new_price_cents:
        body.subscription_type === 'free'
          ? 0
          : planPriceCents(body.subscription_type, body.billing_period, sub.currency),
      unused_credit_cents: 0,
      amount_due_cents: 0,
      effective_at_unix: Math.floor(periodEnd.getTime() / 1000),
    };
  }
  const quote = await upgradeQuote(deps.db, state, body, now);
  return {
    change,
    currency: sub.currency,
    new_price_cents: quote.proration.newPriceCents,
    unused_credit_cents: quote.proration.unusedCreditCents,
    amount_due_cents: quote.amountDueCents,
    effective_at_unix: Math.floor(now.getTime() / 1000),
  };
}

export async function changeSubscription(
  deps: BillingDeps,
  caller: BillingCaller,
  body: {
    subscription_type: 'free' | PaidPlanId;
    billing_period: BillingPeriod;
    idempotency_key: string;
    promocode?: string | null | undefined;
  },
): Promise<{ status: 'ok'; change: 'upgrade' | 'downgrade' }> {
  const provider = requireProvider(deps);
  const outcome = await idempotent(
    deps,
    caller.workspaceId,
    body.idempotency_key,
    'change-subscription',
    body,
    () =>
      withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
        const { state } = ctx;
        requirePaidSubscription(state);
        const target = { tier: body.subscription_type, period: pricePeriodOf(body.billing_period) };
        const action = planAction(target, currentPlanOf(state));
        if ((action === 'downgrade' || action === 'upgrade') && state.sub.cancelAtPeriodEnd) {
          // Changing plan takes the cancellation back, at the provider too (a declined upgrade rolls
          // this transaction back, but not the provider: the cancellation is then simply lifted).
          await provider.setCancelAtPeriodEnd(ctx, false);
        }
        if (checkChange(state, body) === 'downgrade') {
          const downgrade = { tier: body.subscription_type as SubscriptionTier, period: body.billing_period };
          await provider.scheduleDowngrade(ctx, downgrade);
          await saveSubscription(
            ctx.tx,
            state,
            { downgradeTo: downgrade.tier, downgradeToPeriod: downgrade.period, cancelAtPeriodEnd: false },
            ctx.now,
          );
          return { status: 'ok' as const, change: 'downgrade' as const };
        }
        const { sub } = state;
        const paidTier = body.subscription_type as PaidPlanId;
        const { proration, promo, discount, amountDueCents } = await upgradeQuote(
          ctx.tx,
          state,
          body,
          ctx.now,
        );
        const invoice = await insertInvoice(ctx.tx, {
          workspaceId: state.workspace.id,
          kind: 'subscription_update',
          tier: paidTier,
          billingPeriod: body.billing_period,
          currency: sub.currency,
          description: `Upgrade to ${tierDisplayNames[paidTier]}, less ${(proration.unusedCreditCents / 100).toFixed(2)} unused on ${tierDisplayNames[state.workspace.tier]}`,
          subtotalCents: proration.subtotalCents,
          amountDueCents,
          discountPercentOff: discount.now?.percentOff ?? null,
          discountAmountOff: discount.now?.amountOff ?? null,
          periodStart: ctx.now,
          periodEnd: addPeriod(ctx.now, body.billing_period),
          paid: false,
          now: ctx.now,
        });
        const charged = await provider.charge(ctx, invoice, promo);
        if (!charged.ok) {
          // Nothing changes: the upgrade's invoice is voided and the plan stays as it was.
          await voidInvoice(ctx.tx, invoice.id);
          return { declined: `${charged.message} Your plan was not changed.` };
        }
        await markInvoicePaid(ctx.tx, invoice.id, ctx.now);
        await provider.changePlanNow(ctx, { tier: paidTier, period: body.billing_period });
        await setWorkspaceTier(ctx, state, paidTier);
        await saveSubscription(
          ctx.tx,
          state,
          {
            billingPeriod: body.billing_period,
            currentPeriodStart: ctx.now,
            currentPeriodEnd: addPeriod(ctx.now, body.billing_period),
            cancelAtPeriodEnd: false,
            downgradeTo: null,
            downgradeToPeriod: null,
            previouslySubscribedTiers: withPreviousTier(sub.previouslySubscribedTiers, paidTier),
            discount: discount.left,
            redeemedCodes: withRedeemed(sub.redeemedCodes, promo?.code),
          },
          ctx.now,
        );
        // The new period starts now, and the monthly credit reset with it (credits used so far stay used).
        await setNextCreditReset(ctx.tx, state, addPeriod(ctx.now, 'month'));
        return { status: 'ok' as const, change: 'upgrade' as const };
      }).then((result) => {
        if ('declined' in result) throw new AppError('card_declined', String(result.declined));
        return result;
      }),
  );
  return outcome;
}

export async function cancelDowngrade(
  deps: BillingDeps,
  caller: BillingCaller,
  key?: string,
): Promise<{ status: 'ok' }> {
  const provider = requireProvider(deps);
  return idempotent(deps, caller.workspaceId, key, 'cancel-downgrade', {}, () =>
    withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
      if (!ctx.state.sub.downgradeTo) throw conflict('There is no scheduled downgrade to cancel.');
      await provider.scheduleDowngrade(ctx, null);
      await saveSubscription(ctx.tx, ctx.state, { downgradeTo: null, downgradeToPeriod: null }, ctx.now);
      return { status: 'ok' as const };
    }),
  );
}

export async function cancelSubscription(
  deps: BillingDeps,
  caller: BillingCaller,
  key?: string,
): Promise<{ status: 'ok' }> {
  const provider = requireProvider(deps);
  return idempotent(deps, caller.workspaceId, key, 'cancel-subscription', {}, () =>
    withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
      requirePaidSubscription(ctx.state);
      if (ctx.state.sub.cancelAtPeriodEnd) throw conflict('Your subscription is already set to end.');
      if (ctx.state.sub.downgradeTo) await provider.scheduleDowngrade(ctx, null);
      await provider.setCancelAtPeriodEnd(ctx, true);
      await saveSubscription(
        ctx.tx,
        ctx.state,
        { cancelAtPeriodEnd: true, downgradeTo: null, downgradeToPeriod: null },
        ctx.now,
      );
      return { status: 'ok' as const };
    }),
  );
}

export async function renewSubscription(
  deps: BillingDeps,
  caller: BillingCaller,
  key?: string,
): Promise<{ status: 'ok' }> {
  const provider = requireProvider(deps);
  return idempotent(deps, caller.workspaceId, key, 'renew-subscription', {}, () =>
    withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
      if (!ctx.state.sub.cancelAtPeriodEnd)
        throw conflict('Your subscription is not set to end: nothing to renew.');
      await provider.setCancelAtPeriodEnd(ctx, false);
      await saveSubscription(ctx.tx, ctx.state, { cancelAtPeriodEnd: false }, ctx.now);
      return { status: 'ok' as const };
    }),
  );
}

export async function verifyCard(
  deps: BillingDeps,
  caller: BillingCaller,
): Promise<{ status: 'ok'; verified: true }> {
  const provider = requireProvider(deps);
  const result = await withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
    if (!ctx.state.sub.card && !ctx.state.sub.providerCustomerId) throw conflict('There is no card on file.');
    return provider.verifyCard(ctx);
  });
  if (!result.ok) throw new AppError('card_declined', result.message);
  return { status: 'ok', verified: true };
}
