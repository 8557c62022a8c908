import {
  BILLING_PERIODS,
  type BillingPeriod,
  CURRENCIES,
  type Currency,
  isPaidPlanId,
  type SubscriptionStatus,
  tierDisplayNames,
} from '@parla/contracts';
import type Stripe from 'stripe';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import type { EventBus } from '../../platform/events/event-bus';
import { cardOf, idOf, itemOf, type StripeBillingProvider } from '../../providers/billing/stripe-provider';
import {
  type BillingContext,
  billingContext,
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
  loadBillingState,
  markInvoicePaid,
  openInvoices,
  type SubscriptionRow,
  saveSubscription,
  voidInvoice,
  webhookEventSeen,
  withPreviousTier,
} from './billing.store';
import type { InvoiceRow, SessionRow } from './billing.tables';
import { activateFromCheckout, clearPaymentTroubleIfPaidUp, endPlan } from './billing-lifecycle.service';
import { findSessionRow } from './billing-sessions.store';
import { finishSession } from './checkout.service';

export interface StripeWebhookDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  provider: StripeBillingProvider;
}

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** Stripe's subscription status as ours; null for the ended ones (customer.subscription.deleted ends the plan). */
function statusOf(status: Stripe.Subscription.Status): SubscriptionStatus | null {
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

/** The period of the subscription's item (Stripe keeps periods on items). */
function periodOf(
  subscription: Stripe.Subscription,
): Pick<SubscriptionRow, 'currentPeriodStart' | 'currentPeriodEnd'> {
  const item = itemOf(subscription);
  return {
    currentPeriodStart: fromUnix(item.current_period_start),
    currentPeriodEnd: fromUnix(item.current_period_end),
  };
}

/** The service period an invoice pays for: its lines' latest period. */
function invoicePeriod(invoice: Stripe.Invoice): { start: Date; end: Date } {
  let best: Stripe.InvoiceLineItem.Period | null = null;
  for (const line of invoice.lines.data) {
    if (!best || line.period.end > best.end) best = line.period;
  }
  return best
    ? { start: fromUnix(best.start), end: fromUnix(best.end) }
    : { start: fromUnix(invoice.period_start), end: fromUnix(invoice.period_end) };
}

/**
 * Applies one webhook event inside a transaction that claims its id first (billing_webhook_events): a
 * redelivered event finds its id taken and changes nothing. The workspace row is locked, as for every
 * billing change. A workspace that no longer exists takes the event and ignores it.
 */
async function applyToWorkspace(
  deps: StripeWebhookDeps,
  event: Stripe.Event,
  workspaceId: string | null,
  work: (ctx: BillingContext) => Promise<void>,
): Promise<void> {
  await deps.events.transaction(async (tx, events) => {
    if (!(await claimWebhookEvent(tx, event.id, event.type))) return;
    if (!workspaceId) return;
    let state: BillingContext['state'];
    try {
      state = await loadBillingState(tx, workspaceId, { lock: true });
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthorized') return;
      throw error;
    }
    await work(billingContext(tx, events, state, deps.clock.now(), null));
  });
}

/** The workspace an event is about: from our metadata, else from the Stripe customer on file. */
async function workspaceOf(
  db: Db,
  metadata: Stripe.Metadata | null | undefined,
  customer: string | { id: string } | null,
): Promise<string | null> {
  const fromMetadata = metadata?.workspace_id;
  if (fromMetadata) return fromMetadata;
  const customerId = idOf(customer);
  return customerId ? findWorkspaceIdByCustomer(db, customerId) : null;
}

/** The subscription an invoice belongs to. */
const invoiceSubscriptionId = (invoice: Stripe.Invoice) =>
  idOf(invoice.parent?.subscription_details?.subscription ?? null);

/** The subscription an invoice belongs to and its workspace; null for invoices outside a subscription. */
async function invoiceSubject(
  db: Db,
  invoice: Stripe.Invoice,
): Promise<{ subscriptionId: string; workspaceId: string | null } | null> {
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (!subscriptionId) return null;
  const workspaceId = await workspaceOf(db, invoice.parent?.subscription_details?.metadata, invoice.customer);
  return { subscriptionId, workspaceId };
}

/**
 * A checkout we opened, as the engine's session row: ours when it is still there (its offer and promo),
 * else rebuilt from the checkout's metadata. The amounts are the ones Stripe charged.
 */
async function checkoutSessionRow(
  ctx: BillingContext,
  checkout: Stripe.Checkout.Session,
): Promise<SessionRow | null> {
  const metadata = checkout.metadata ?? {};
  const stored = metadata.parla_session_id ? await findSessionRow(ctx.tx, metadata.parla_session_id) : null;
  const amounts = {
    ...(checkout.amount_subtotal != null ? { priceCents: checkout.amount_subtotal } : {}),
    ...(checkout.amount_total != null ? { amountDueCents: checkout.amount_total } : {}),
  };
  if (stored && stored.workspaceId === ctx.state.workspace.id) return { ...stored, ...amounts };
  const { tier, billing_period: period, currency } = metadata;
  if (
    !tier ||
    !isPaidPlanId(tier) ||
    !(BILLING_PERIODS as readonly string[]).includes(period ?? '') ||
    !(CURRENCIES as readonly string[]).includes(currency ?? '')
  ) {
    return null;
  }
  return {
    id: `stripe_${checkout.id}`,
    workspaceId: ctx.state.workspace.id,
    userId: null,
    kind: 'checkout',
    status: 'open',
    tier,
    billingPeriod: period as BillingPeriod,
    currency: currency as Currency,
    priceCents: checkout.amount_subtotal,
    amountDueCents: checkout.amount_total,
    discount: null,
    pendingCard: null,
    invoiceId: null,
    lastError: null,
    returnUrl: '',
    successUrl: '',
    createdAt: ctx.now,
    expiresAt: ctx.now,
  };
}

/** A paid subscription checkout: the plan starts, as with the built-in provider (activateFromCheckout). */
async function onSubscriptionCheckout(
  deps: StripeWebhookDeps,
  event: Stripe.Event,
  checkout: Stripe.Checkout.Session,
): Promise<void> {
  const subscriptionId = idOf(checkout.subscription);
  const customerId = idOf(checkout.customer);
  // Paid later (a bank debit): checkout.session.async_payment_succeeded brings it back.
  if (!subscriptionId || !customerId || checkout.payment_status === 'unpaid') return;
  const subscription = await deps.provider.stripe.subscriptions.retrieve(subscriptionId, {
    expand: ['default_payment_method'],
  });
  const workspaceId =
    checkout.client_reference_id ?? (await workspaceOf(deps.db, checkout.metadata, customerId));
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    // The same checkout told twice (completed, then async_payment_succeeded): the plan started once.
    if (ctx.state.sub.providerSubscriptionId === subscriptionId) return;
    const { workspace, sub } = ctx.state;
    if (sub.providerSubscriptionId && workspace.tier !== 'free' && workspace.tier !== 'trial') {
      // A second checkout paid while the workspace already has a plan: that Stripe subscription is
      // cancelled at once instead of replacing (and orphaning) the one on file. Its first payment is
      // left for a refund from Stripe's dashboard.
      await deps.provider.stripe.subscriptions.cancel(subscriptionId);
      return;
    }
    const session = await checkoutSessionRow(ctx, checkout);
    if (!session) return;
    await saveSubscription(
      ctx.tx,
      ctx.state,
      {
        provider: 'stripe',
        providerCustomerId: customerId,
        providerSubscriptionId: subscriptionId,
        providerScheduleId: null,
      },
      ctx.now,
    );
    await activateFromCheckout(ctx, session, cardOf(subscription.default_payment_method));
    await saveSubscription(
      ctx.tx,
      ctx.state,
      {
        ...periodOf(subscription),
        status: statusOf(subscription.status) ?? 'active',
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
      },
      ctx.now,
    );
    if (!session.id.startsWith('stripe_')) await finishSession(ctx, session);
  });
}

/** A card saved in a setup checkout: it becomes the card Stripe charges, and pays what is owed. */
async function onSetupCheckout(
  deps: StripeWebhookDeps,
  event: Stripe.Event,
  checkout: Stripe.Checkout.Session,
): Promise<void> {
  const { stripe } = deps.provider;
  const setupIntentId = idOf(checkout.setup_intent);
  const customerId = idOf(checkout.customer);
  if (!setupIntentId || !customerId) return;
  const intent = await stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] });
  const methodId = idOf(intent.payment_method);
  if (!methodId) return;
  await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: methodId } });
  const workspaceId =
    checkout.client_reference_id ?? (await workspaceOf(deps.db, checkout.metadata, customerId));
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    const subscriptionId = ctx.state.sub.providerSubscriptionId;
    if (subscriptionId) {
      await stripe.subscriptions.update(subscriptionId, { default_payment_method: methodId });
    }
    const card = cardOf(intent.payment_method);
    if (card) await saveSubscription(ctx.tx, ctx.state, { card }, ctx.now);
    const sessionId = checkout.metadata?.parla_session_id;
    const session = sessionId ? await findSessionRow(ctx.tx, sessionId) : null;
    if (session && session.workspaceId === ctx.state.workspace.id) await finishSession(ctx, session);
    // A new card pays what is owed straight away; invoice.paid then settles each invoice.
    for (const invoice of await openInvoices(ctx.tx, ctx.state.workspace.id)) {
      if (!invoice.providerInvoiceId) continue;
      try {
        await stripe.invoices.pay(invoice.providerInvoiceId);
      } catch (error) {
        // A decline leaves the invoice open; Stripe keeps retrying it.
        if (!(error instanceof deps.provider.stripe.errors.StripeCardError)) throw error;
      }
    }
  });
}

/** Marks an invoice paid; with nothing else owed, payment trouble ends. */
async function settleInvoice(ctx: BillingContext, invoice: InvoiceRow): Promise<void> {
  if (invoice.status !== 'paid') await markInvoicePaid(ctx.tx, invoice.id, ctx.now);
  await clearPaymentTroubleIfPaidUp(ctx);
}

/**
 * An invoice Stripe voided or gave up collecting: it is no longer owed here either (void), and a past-due
 * subscription with nothing else owed is active again. What the subscription becomes after failed
 * collection (cancelled, unpaid) arrives as customer.subscription.updated or .deleted.
 */
async function onInvoiceWrittenOff(deps: StripeWebhookDeps, event: Stripe.Event, invoice: Stripe.Invoice) {
  const about = await invoiceSubject(deps.db, invoice);
  if (!about) return;
  await applyToWorkspace(deps, event, about.workspaceId, async (ctx) => {
    const recorded = await findInvoiceByProviderId(ctx.tx, ctx.state.workspace.id, invoice.id);
    if (recorded?.status !== 'open') return;
    await voidInvoice(ctx.tx, recorded.id);
    await clearPaymentTroubleIfPaidUp(ctx);
  });
}

/**
 * A paid renewal: the new period starts (the invoice's), a pending downgrade takes effect (Stripe's
 * schedule already switched the price), and the credits start over — closePeriod's work, with Stripe
 * having charged the card. The first invoice belongs to the checkout and an upgrade's to the engine's
 * own call, so those only settle an invoice recorded open.
 */
async function onInvoicePaid(deps: StripeWebhookDeps, event: Stripe.Event, invoice: Stripe.Invoice) {
  const about = await invoiceSubject(deps.db, invoice);
  if (!about) return;
  const { subscriptionId, workspaceId } = about;
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    const { state } = ctx;
    if (state.sub.providerSubscriptionId !== subscriptionId) return;
    const recorded = await findInvoiceByProviderId(ctx.tx, state.workspace.id, invoice.id);
    if (invoice.billing_reason !== 'subscription_cycle') {
      if (recorded) await settleInvoice(ctx, recorded);
      return;
    }
    if (recorded?.status === 'paid') return;
    const { sub } = state;
    const tier = sub.downgradeTo && isPaidPlanId(sub.downgradeTo) ? sub.downgradeTo : state.workspace.tier;
    const period = sub.downgradeToPeriod ?? sub.billingPeriod;
    if (!isPaidPlanId(tier) || !period) return;
    const { start, end } = invoicePeriod(invoice);
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
        subtotalCents: invoice.subtotal,
        amountDueCents: invoice.total,
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

/** A renewal Stripe could not charge: the subscription is past due and the invoice shows as open. */
async function onInvoicePaymentFailed(deps: StripeWebhookDeps, event: Stripe.Event, invoice: Stripe.Invoice) {
  const about = await invoiceSubject(deps.db, invoice);
  if (!about) return;
  const { subscriptionId, workspaceId } = about;
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    const { state } = ctx;
    // The first invoice fails inside Checkout, an upgrade's inside the engine's call: only renewals here.
    if (
      state.sub.providerSubscriptionId !== subscriptionId ||
      invoice.billing_reason !== 'subscription_cycle'
    ) {
      return;
    }
    const { sub } = state;
    const recorded = await findInvoiceByProviderId(ctx.tx, state.workspace.id, invoice.id);
    const tier = sub.downgradeTo && isPaidPlanId(sub.downgradeTo) ? sub.downgradeTo : state.workspace.tier;
    const period = sub.downgradeToPeriod ?? sub.billingPeriod;
    if (!recorded && period) {
      const { start, end } = invoicePeriod(invoice);
      await insertInvoice(ctx.tx, {
        workspaceId: state.workspace.id,
        kind: 'subscription_cycle',
        tier,
        billingPeriod: period,
        currency: sub.currency,
        description: isPaidPlanId(tier) ? describePlan(tier, period) : tierDisplayNames[tier],
        subtotalCents: invoice.subtotal,
        amountDueCents: invoice.amount_due,
        periodStart: start,
        periodEnd: end,
        paid: false,
        now: ctx.now,
        nextPaymentAttemptAt: invoice.next_payment_attempt ? fromUnix(invoice.next_payment_attempt) : null,
        providerInvoiceId: invoice.id,
      });
    }
    await saveSubscription(ctx.tx, state, { status: 'past_due' }, ctx.now);
    await notifyPaymentFailed(ctx);
  });
}

/**
 * The subscription changed at Stripe (a renewal moved the period, a cancellation from the portal, a status
 * change, a schedule that ended). Read afresh, under the workspace lock, so that late or reordered events
 * never roll it back.
 */
async function onSubscriptionUpdated(
  deps: StripeWebhookDeps,
  event: Stripe.Event,
  subscription: Stripe.Subscription,
) {
  const workspaceId = await workspaceOf(deps.db, subscription.metadata, subscription.customer);
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    const { sub } = ctx.state;
    if (sub.providerSubscriptionId !== subscription.id) return;
    const fresh = await deps.provider.stripe.subscriptions.retrieve(subscription.id);
    const status = statusOf(fresh.status);
    if (!status) return;
    const changes: Partial<SubscriptionRow> = {
      ...periodOf(fresh),
      status,
      cancelAtPeriodEnd: fresh.cancel_at_period_end,
    };
    // The downgrade's schedule is gone (released in the portal, or over): nothing is pending any more.
    if (!idOf(fresh.schedule) && sub.providerScheduleId) {
      Object.assign(changes, { providerScheduleId: null, downgradeTo: null, downgradeToPeriod: null });
    }
    await saveSubscription(ctx.tx, ctx.state, changes, ctx.now);
  });
}

/** The subscription ended (cancelled at the period end, a downgrade to free, or ended at Stripe): free. */
async function onSubscriptionDeleted(
  deps: StripeWebhookDeps,
  event: Stripe.Event,
  subscription: Stripe.Subscription,
) {
  const workspaceId = await workspaceOf(deps.db, subscription.metadata, subscription.customer);
  await applyToWorkspace(deps, event, workspaceId, async (ctx) => {
    if (ctx.state.sub.providerSubscriptionId !== subscription.id) return;
    const end =
      ctx.state.sub.currentPeriodEnd && ctx.state.sub.currentPeriodEnd < ctx.now
        ? ctx.state.sub.currentPeriodEnd
        : ctx.now;
    // Stripe's schedule ended with the subscription: endPlan has nothing to release there.
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
 * `POST /v1/billing/stripe/webhook`: the provider checks Stripe's signature on the raw body, then the event is applied
 * once (a redelivery answers 200 and changes nothing). Events Parla does not use are acknowledged.
 */
export async function handleStripeWebhook(
  deps: StripeWebhookDeps,
  rawBody: Buffer,
  signature: string | string[] | undefined,
): Promise<{ received: true }> {
  // The provider checks the signature and reads the event; this module applies it.
  const event = deps.provider.readWebhookEvent(rawBody, signature);
  if (await webhookEventSeen(deps.db, event.id)) return { received: true };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const checkout = event.data.object;
      if (checkout.mode === 'subscription') await onSubscriptionCheckout(deps, event, checkout);
      else if (checkout.mode === 'setup') await onSetupCheckout(deps, event, checkout);
      break;
    }
    case 'invoice.paid':
      await onInvoicePaid(deps, event, event.data.object);
      break;
    case 'invoice.payment_failed':
      await onInvoicePaymentFailed(deps, event, event.data.object);
      break;
    case 'invoice.voided':
    case 'invoice.marked_uncollectible':
      await onInvoiceWrittenOff(deps, event, event.data.object);
      break;
    case 'customer.subscription.updated':
      await onSubscriptionUpdated(deps, event, event.data.object);
      break;
    case 'customer.subscription.deleted':
      await onSubscriptionDeleted(deps, event, event.data.object);
      break;
    default:
      break;
  }
  return { received: true };
}
