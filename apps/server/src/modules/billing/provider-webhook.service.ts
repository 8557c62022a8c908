import {
  BILLING_PERIODS,
  type BillingPeriod,
  CURRENCIES,
  type Currency,
  isPaidPlanId,
  tierDisplayNames,
} from '@parla/contracts';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import type { EventBus } from '../../platform/events/event-bus';
import type {
  BillingProvider,
  BillingWebhooks,
  ProviderBillingEvent,
  ProviderEventSubject,
} from '../../providers/billing/billing-provider';
import {
  type BillingContext,
  billingContext,
  lockBillingState,
  notifyPaymentFailed,
  setWorkspaceTier,
  startCreditPeriod,
} from './billing.context';
import { addPeriod, describePlan, useDiscount } from './billing.pricing';
import {
  claimWebhookEvent,
  findInvoiceByProviderId,
  findWorkspaceIdByCustomer,
  insertInvoice,
  markInvoicePaid,
  openInvoices,
  saveSubscription,
  voidInvoice,
  webhookEventSeen,
  withPreviousTier,
} from './billing.store';
import type { InvoiceRow, SessionRow, SubscriptionRow } from './billing.tables';
import { activateFromCheckout, clearPaymentTroubleIfPaidUp, endPlan } from './billing-lifecycle.service';
import { findSessionRow } from './billing-sessions.store';
import { finishSession } from './checkout.service';

/** A provider that tells us by webhook (Stripe). */
export type WebhookProvider = BillingProvider & { readonly webhooks: BillingWebhooks };

export function hasWebhooks(provider: BillingProvider | null): provider is WebhookProvider {
  return provider?.webhooks !== undefined;
}

export interface ProviderWebhookDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  provider: WebhookProvider;
}

/** An event of one kind. */
type EventOf<K extends ProviderBillingEvent['kind']> = Extract<ProviderBillingEvent, { kind: K }>;

/**
 * Applies one webhook event inside a transaction that claims its id first (billing_webhook_events): a
 * redelivered event finds its id taken and changes nothing. The workspace row is locked, as for every
 * billing change. A workspace that no longer exists takes the event and ignores it.
 */
async function applyToWorkspace(
  deps: ProviderWebhookDeps,
  event: ProviderBillingEvent,
  workspaceId: string | null,
  work: (ctx: BillingContext) => Promise<void>,
): Promise<void> {
  await deps.events.transaction(async (tx, events) => {
    if (!(await claimWebhookEvent(tx, event.eventId, event.eventType))) return;
    if (!workspaceId) return;
    let state: BillingContext['state'];
    try {
      state = await lockBillingState(tx, workspaceId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthorized') return;
      throw error;
    }
    await work(billingContext(tx, events, state, deps.clock.now(), null));
  });
}

/** The workspace an event is about: the one it names, else the one whose provider customer it is. */
async function workspaceOf(db: Db, subject: ProviderEventSubject): Promise<string | null> {
  if (subject.workspaceId !== null) return subject.workspaceId;
  return subject.customerId ? findWorkspaceIdByCustomer(db, subject.customerId) : null;
}

/**
 * A checkout we opened, as the engine's session row: ours when it is still there (its offer and promo;
 * `stored`), else rebuilt from the checkout's metadata. The amounts are the ones the provider charged.
 */
async function checkoutSessionRow(
  ctx: BillingContext,
  checkout: EventOf<'subscription_checkout_paid'>['checkout'],
): Promise<{ session: SessionRow; stored: boolean } | null> {
  const stored = checkout.sessionId ? await findSessionRow(ctx.tx, checkout.sessionId) : null;
  const amounts = {
    ...(checkout.subtotalCents != null ? { priceCents: checkout.subtotalCents } : {}),
    ...(checkout.totalCents != null ? { amountDueCents: checkout.totalCents } : {}),
  };
  if (stored && stored.workspaceId === ctx.state.workspace.id) {
    return { session: { ...stored, ...amounts }, stored: true };
  }
  const { tier, billingPeriod: period, currency } = checkout;
  if (
    !tier ||
    !isPaidPlanId(tier) ||
    !(BILLING_PERIODS as readonly string[]).includes(period ?? '') ||
    !(CURRENCIES as readonly string[]).includes(currency ?? '')
  ) {
    return null;
  }
  const session: SessionRow = {
    id: `provider_${checkout.id}`,
    workspaceId: ctx.state.workspace.id,
    userId: null,
    kind: 'checkout',
    status: 'open',
    tier,
    billingPeriod: period as BillingPeriod,
    currency: currency as Currency,
    priceCents: checkout.subtotalCents,
    amountDueCents: checkout.totalCents,
    discount: null,
    pendingCard: null,
    invoiceId: null,
    lastError: null,
    returnUrl: '',
    successUrl: '',
    createdAt: ctx.now,
    expiresAt: ctx.now,
  };
  return { session, stored: false };
}

/** A paid subscription checkout: the plan starts, as with the built-in provider (activateFromCheckout). */
async function onSubscriptionCheckout(
  deps: ProviderWebhookDeps,
  event: EventOf<'subscription_checkout_paid'>,
): Promise<void> {
  const { subscription, customerId } = event;
  const workspaceId = await workspaceOf(deps.db, event.subject);
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    // The same checkout told twice (completed, then async_payment_succeeded): the plan started once.
    if (ctx.state.sub.providerSubscriptionId === subscription.id) return;
    const { workspace, sub } = ctx.state;
    if (sub.providerSubscriptionId && workspace.tier !== 'free' && workspace.tier !== 'trial') {
      // A second checkout paid while the workspace already has a plan: that provider subscription is
      // cancelled at once instead of replacing (and orphaning) the one on file. Its first payment is
      // left for a refund from the provider's dashboard.
      await deps.provider.webhooks.cancelSubscriptionNow(subscription.id);
      return;
    }
    const found = await checkoutSessionRow(ctx, event.checkout);
    if (!found) return;
    await saveSubscription(
      ctx.tx,
      ctx.state,
      {
        provider: deps.provider.name,
        providerCustomerId: customerId,
        providerSubscriptionId: subscription.id,
        providerScheduleId: null,
      },
      ctx.now,
    );
    await activateFromCheckout(ctx, found.session, subscription.card);
    await saveSubscription(
      ctx.tx,
      ctx.state,
      {
        currentPeriodStart: subscription.currentPeriodStart,
        currentPeriodEnd: subscription.currentPeriodEnd,
        status: subscription.status ?? 'active',
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      },
      ctx.now,
    );
    if (found.stored) await finishSession(ctx, found.session);
  });
}

/** A card saved in a setup checkout: it becomes the card the subscription is charged, and pays what is owed. */
async function onCardSaved(deps: ProviderWebhookDeps, event: EventOf<'card_saved'>): Promise<void> {
  const { webhooks } = deps.provider;
  const workspaceId = await workspaceOf(deps.db, event.subject);
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    const subscriptionId = ctx.state.sub.providerSubscriptionId;
    if (subscriptionId) await webhooks.useCardForSubscription(subscriptionId, event.providerCardId);
    if (event.card) await saveSubscription(ctx.tx, ctx.state, { card: event.card }, ctx.now);
    const session = event.sessionId ? await findSessionRow(ctx.tx, event.sessionId) : null;
    if (session && session.workspaceId === ctx.state.workspace.id) await finishSession(ctx, session);
    // A new card pays what is owed straight away; invoice_paid then settles each invoice. A decline leaves
    // the invoice open, and the provider keeps retrying it.
    for (const invoice of await openInvoices(ctx.tx, ctx.state.workspace.id)) {
      if (invoice.providerInvoiceId) await webhooks.payInvoice(invoice.providerInvoiceId);
    }
  });
}

/** Marks an invoice paid; with nothing else owed, payment trouble ends. */
async function settleInvoice(ctx: BillingContext, invoice: InvoiceRow): Promise<void> {
  if (invoice.status !== 'paid') await markInvoicePaid(ctx.tx, invoice.id, ctx.now);
  await clearPaymentTroubleIfPaidUp(ctx);
}

/**
 * An invoice the provider voided or gave up collecting: it is no longer owed here either (void), and a
 * past-due subscription with nothing else owed is active again. What the subscription becomes after failed
 * collection (cancelled, unpaid) arrives as subscription_updated or subscription_deleted.
 */
async function onInvoiceWrittenOff(deps: ProviderWebhookDeps, event: EventOf<'invoice_written_off'>) {
  const workspaceId = await workspaceOf(deps.db, event.subject);
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    const recorded = await findInvoiceByProviderId(ctx.tx, ctx.state.workspace.id, event.invoice.id);
    if (recorded?.status !== 'open') return;
    await voidInvoice(ctx.tx, recorded.id);
    await clearPaymentTroubleIfPaidUp(ctx);
  });
}

/**
 * A paid renewal: the new period starts (the invoice's), a pending downgrade takes effect (the provider's
 * schedule already switched the price), and the credits start over — closePeriod's work, with the
 * provider having charged the card. The first invoice belongs to the checkout and an upgrade's to the
 * engine's own call, so those only settle an invoice recorded open.
 */
async function onInvoicePaid(deps: ProviderWebhookDeps, event: EventOf<'invoice_paid'>) {
  const { invoice } = event;
  const workspaceId = await workspaceOf(deps.db, event.subject);
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    const { state } = ctx;
    if (state.sub.providerSubscriptionId !== invoice.subscriptionId) return;
    const recorded = await findInvoiceByProviderId(ctx.tx, state.workspace.id, invoice.id);
    if (!invoice.renewal) {
      if (recorded) await settleInvoice(ctx, recorded);
      return;
    }
    if (recorded?.status === 'paid') return;
    const { sub } = state;
    const tier = sub.downgradeTo && isPaidPlanId(sub.downgradeTo) ? sub.downgradeTo : state.workspace.tier;
    const period = sub.downgradeToPeriod ?? sub.billingPeriod;
    if (!isPaidPlanId(tier) || !period) return;
    const { periodStart: start, periodEnd: end } = invoice;
    const discount = useDiscount(sub.discount);
    if (recorded) await markInvoicePaid(ctx.tx, recorded.id, ctx.now);
    else {
      await insertInvoice(ctx.tx, {
        workspaceId: state.workspace.id,
        kind: 'subscription_cycle',
        tier,
        billingPeriod: period,
        currency: sub.currency,
        description: describePlan(tier, period),
        subtotalCents: invoice.subtotalCents,
        amountDueCents: invoice.totalCents,
        discountPercentOff: discount.now?.percentOff ?? null,
        discountAmountOff: discount.now?.amountOff ?? null,
        periodStart: start,
        periodEnd: end,
        paid: true,
        now: ctx.now,
        providerInvoiceId: invoice.id,
      });
    }
    const owing = (await openInvoices(ctx.tx, state.workspace.id)).length > 0;
    await setWorkspaceTier(ctx, state, tier);
    await saveSubscription(
      ctx.tx,
      state,
      {
        status: owing ? 'past_due' : 'active',
        billingPeriod: period,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        downgradeTo: null,
        downgradeToPeriod: null,
        discount: discount.left,
        previouslySubscribedTiers: withPreviousTier(sub.previouslySubscribedTiers, tier),
      },
      ctx.now,
    );
    await startCreditPeriod(ctx, state, addPeriod(start, 'month'), ctx.now);
  });
}

/** A renewal the provider could not charge: the subscription is past due and the invoice shows as open. */
async function onInvoicePaymentFailed(deps: ProviderWebhookDeps, event: EventOf<'invoice_payment_failed'>) {
  const { invoice } = event;
  const workspaceId = await workspaceOf(deps.db, event.subject);
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    const { state } = ctx;
    // The first invoice fails inside the checkout, an upgrade's inside the engine's call: only renewals here.
    if (state.sub.providerSubscriptionId !== invoice.subscriptionId || !invoice.renewal) return;
    const { sub } = state;
    const recorded = await findInvoiceByProviderId(ctx.tx, state.workspace.id, invoice.id);
    const tier = sub.downgradeTo && isPaidPlanId(sub.downgradeTo) ? sub.downgradeTo : state.workspace.tier;
    const period = sub.downgradeToPeriod ?? sub.billingPeriod;
    if (!recorded && period) {
      await insertInvoice(ctx.tx, {
        workspaceId: state.workspace.id,
        kind: 'subscription_cycle',
        tier,
        billingPeriod: period,
        currency: sub.currency,
        description: isPaidPlanId(tier) ? describePlan(tier, period) : tierDisplayNames[tier],
        subtotalCents: invoice.subtotalCents,
        amountDueCents: invoice.amountDueCents,
        periodStart: invoice.periodStart,
        periodEnd: invoice.periodEnd,
        paid: false,
        now: ctx.now,
        nextPaymentAttemptAt: invoice.nextAttemptAt,
        providerInvoiceId: invoice.id,
      });
    }
    await saveSubscription(ctx.tx, state, { status: 'past_due' }, ctx.now);
    await notifyPaymentFailed(ctx);
  });
}

/**
 * The subscription changed at the provider (a renewal moved the period, a cancellation from its portal, a
 * status change, a schedule that ended). Read afresh, under the workspace lock, so that late or reordered
 * events never roll it back.
 */
async function onSubscriptionUpdated(deps: ProviderWebhookDeps, event: EventOf<'subscription_updated'>) {
  const workspaceId = await workspaceOf(deps.db, event.subject);
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    const { sub } = ctx.state;
    if (sub.providerSubscriptionId !== event.subscriptionId) return;
    const fresh = await deps.provider.webhooks.readSubscription(event.subscriptionId);
    if (!fresh.status) return;
    const changes: Partial<SubscriptionRow> = {
      currentPeriodStart: fresh.currentPeriodStart,
      currentPeriodEnd: fresh.currentPeriodEnd,
      status: fresh.status,
      cancelAtPeriodEnd: fresh.cancelAtPeriodEnd,
    };
    // The downgrade's schedule is gone (released in the portal, or over): nothing is pending any more.
    if (!fresh.scheduled && sub.providerScheduleId) {
      Object.assign(changes, { providerScheduleId: null, downgradeTo: null, downgradeToPeriod: null });
    }
    await saveSubscription(ctx.tx, ctx.state, changes, ctx.now);
  });
}

/** The subscription ended (cancelled at the period end, a downgrade to free, or ended at the provider): free. */
async function onSubscriptionDeleted(deps: ProviderWebhookDeps, event: EventOf<'subscription_deleted'>) {
  const workspaceId = await workspaceOf(deps.db, event.subject);
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    if (ctx.state.sub.providerSubscriptionId !== event.subscriptionId) return;
    const end =
      ctx.state.sub.currentPeriodEnd && ctx.state.sub.currentPeriodEnd < ctx.now
        ? ctx.state.sub.currentPeriodEnd
        : ctx.now;
    // The provider's schedule ended with the subscription: endPlan has nothing to release there.
    await saveSubscription(
      ctx.tx,
      ctx.state,
      { providerSubscriptionId: null, providerScheduleId: null, downgradeTo: null, downgradeToPeriod: null },
      ctx.now,
    );
    await endPlan(ctx, deps.provider, 'free');
    await startCreditPeriod(ctx, ctx.state, addPeriod(end, 'month'), ctx.now);
  });
}

/**
 * A provider's webhook request (Stripe's `POST /v1/billing/stripe/webhook`): the provider checks its
 * signature on the raw body and says which event it is; an event already applied answers 200 and changes
 * nothing (nor is it read further), else the provider reads it into the port's neutral event and this
 * module applies it once. Events billing does not use are acknowledged.
 */
export async function handleProviderWebhook(
  deps: ProviderWebhookDeps,
  rawBody: Buffer,
  signature: string | string[] | undefined,
): Promise<{ received: true }> {
  const delivery = await deps.provider.webhooks.receive(rawBody, signature);
  if (await webhookEventSeen(deps.db, delivery.eventId)) return { received: true };
  const event = await delivery.read();
  switch (event.kind) {
    case 'subscription_checkout_paid':
      await onSubscriptionCheckout(deps, event);
      break;
    case 'card_saved':
      await onCardSaved(deps, event);
      break;
    case 'invoice_paid':
      await onInvoicePaid(deps, event);
      break;
    case 'invoice_payment_failed':
      await onInvoicePaymentFailed(deps, event);
      break;
    case 'invoice_written_off':
      await onInvoiceWrittenOff(deps, event);
      break;
    case 'subscription_updated':
      await onSubscriptionUpdated(deps, event);
      break;
    case 'subscription_deleted':
      await onSubscriptionDeleted(deps, event);
      break;
    case 'ignored':
      break;
  }
  return { received: true };
}
