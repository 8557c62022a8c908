import { createHash } from 'node:crypto';
import {
  type BillingOverview,
  type BillingPeriod,
  type CardDetails,
  type Currency,
  type CurrentPlan,
  canChangePaymentMethod,
  DISCOUNT_CODES,
  type HostedSession,
  type Invoice,
  isEligibleForFirstMonthOffer,
  isEnterpriseTier,
  isPaidPlanId,
  type PaidPlanId,
  type PendingChange,
  type PromoValidation,
  paymentProviderOf,
  planAction,
  planPriceCents,
  pricePeriodOf,
  type SubscriptionTier,
  tierDisplayNames,
  tierLimits,
} from '@parla/contracts';
import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock';
import { toUnixSeconds } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { subscriptionPaymentFailed } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import {
  addPeriod,
  cardRefusal,
  discounted,
  FIRST_MONTH_CODE,
  firstInvoice,
  nextMonthlyReset,
  prorateUpgrade,
  readCard,
} from './billing.pricing';
import {
  type BillingState,
  findInvoice,
  insertInvoice,
  listInvoices,
  loadBillingState,
  markInvoicePaid,
  openInvoices,
  resetCredits,
  saveSubscription,
  setWorkspaceTier,
  voidInvoice,
  voidOpenFirstInvoices,
  withPreviousTier,
} from './billing.store';
import {
  billingIdempotency,
  billingInvoices,
  billingSessions,
  billingSubscriptions,
  type InvoiceRow,
  promoCodes,
  type SessionRow,
  type StoredCard,
  type StoredDiscount,
} from './billing.tables';
import type { BillingProvider, ProviderContext } from './billing-provider';

export interface BillingDeps {
  db: Db;
  /** Publishes what billing does (a failed renewal) to the modules that react to it. */
  events: EventBus;
  clock: Clock;
  publicUrl: string;
  /** null: payments are off on this server (BILLING_PROVIDER=none, the "isolated environment"). */
  provider: BillingProvider | null;
}

export interface BillingCaller {
  userId: string;
  workspaceId: string;
}

const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** An unpaid first invoice gives up after 23 hours, as card processors' incomplete subscriptions do. */
const INCOMPLETE_TTL_MS = 23 * 60 * 60 * 1000;
/** A failed renewal is tried again three days later, three more times. */
const RETRY_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
const MAX_RENEWAL_ATTEMPTS = 4;

// ---- Helpers ----------------------------------------------------------------------------------------

function requireProvider(deps: BillingDeps): BillingProvider {
  if (!deps.provider) throw new AppError('feature_disabled', 'Payments are turned off on this server.');
  return deps.provider;
}

function conflict(message: string): AppError {
  return new AppError('subscription_conflict', message);
}

/**
 * A renewal could not be charged (the subscription is past_due, accounts §4): published in the transaction
 * that records it, so the owner is told (under the bell) once it has committed.
 */
export async function notifyPaymentFailed(ctx: ProviderContext): Promise<void> {
  await ctx.events.publish(subscriptionPaymentFailed, {
    workspaceId: ctx.state.workspace.id,
    ownerId: ctx.state.workspace.ownerId,
  });
}

async function emailOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

/** Runs `work` in a transaction with the workspace row locked, so billing calls on a workspace queue up. */
async function withLockedState<T>(
  deps: BillingDeps,
  workspaceId: string,
  userId: string | null,
  work: (ctx: ProviderContext) => Promise<T>,
): Promise<T> {
  const email = userId ? await emailOf(deps.db, userId) : null;
  return deps.events.transaction(async (tx, events) => {
    const state = await loadBillingState(tx, workspaceId, { lock: true });
    return work({ tx, events, state, now: deps.clock.now(), email });
  });
}

/**
 * The same idempotency key answers the same result and never does the work twice (issue 5): a row is
 * claimed before the work, holds the answer after it, and is let go when the work fails, so the call can
 * be tried again. A key reused for a different call or body is refused.
 */
async function idempotent<T>(
  deps: BillingDeps,
  workspaceId: string,
  key: string | undefined,
  operation: string,
  body: unknown,
  work: () => Promise<T>,
): Promise<T> {
  if (!key) return work();
  const requestHash = createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
  const claimed = await deps.db
    .insert(billingIdempotency)
    .values({ workspaceId, key, operation, requestHash, response: { pending: true } })
    .onConflictDoNothing()
    .returning({ key: billingIdempotency.key });
  if (claimed.length === 0) {
    const [row] = await deps.db
      .select()
      .from(billingIdempotency)
      .where(and(eq(billingIdempotency.workspaceId, workspaceId), eq(billingIdempotency.key, key)));
    if (!row) return idempotent(deps, workspaceId, key, operation, body, work);
    if (row.operation !== operation || row.requestHash !== requestHash) {
      throw new AppError('conflict', 'This idempotency key was already used for a different request.');
    }
    if ((row.response as { pending?: boolean }).pending === true) {
      throw new AppError('conflict', 'A request with this idempotency key is still in progress.');
    }
    return row.response as T;
  }
  try {
    const result = await work();
    await deps.db
      .update(billingIdempotency)
      .set({ response: result as object })
      .where(and(eq(billingIdempotency.workspaceId, workspaceId), eq(billingIdempotency.key, key)));
    return result;
  } catch (error) {
    await deps.db
      .delete(billingIdempotency)
      .where(and(eq(billingIdempotency.workspaceId, workspaceId), eq(billingIdempotency.key, key)));
    throw error;
  }
}

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

/** A promo code's terms, or the §8 errors: unknown → invalid_promocode, past its end → coupon_expired. */
async function findPromo(db: Db, code: string, now: Date, redeemed: string[] = []): Promise<StoredDiscount> {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.code, code));
  // A code this workspace has used is spent for it (each works once per workspace).
  if (!row || redeemed.includes(row.code))
    throw new AppError('invalid_promocode', `Coupon code ${code} is invalid`);
  if (row.expiresAt && row.expiresAt <= now) {
    throw new AppError('coupon_expired', 'This coupon has expired, please use a different one.');
  }
  return {
    code: row.code,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    monthsLeft: row.durationInMonths,
  };
}

/** Adds a used promo or discount code (the first-month offer is not a code). */
function withRedeemed(codes: string[], code: string | null | undefined): string[] {
  if (!code || code === FIRST_MONTH_CODE || codes.includes(code)) return codes;
  return [...codes, code];
}

/** The discount an invoice gets now, and what is left of it for the invoices after. */
export function useDiscount(discount: StoredDiscount | null): {
  now: StoredDiscount | null;
  left: StoredDiscount | null;
} {
  if (!discount || discount.monthsLeft <= 0) return { now: null, left: null };
  return {
    now: discount,
    left: discount.monthsLeft > 1 ? { ...discount, monthsLeft: discount.monthsLeft - 1 } : null,
  };
}

// ---- Reading --------------------------------------------------------------------------------------

function toInvoice(row: InvoiceRow): Invoice {
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

/** The invoice the next period end will bring, when the subscription renews (accounts §3 next_invoice). */
function upcomingInvoice(state: BillingState): Invoice | null {
  const { sub, workspace } = state;
  if (!sub.currentPeriodEnd || !sub.billingPeriod || sub.cancelAtPeriodEnd) return null;
  const tier = sub.downgradeTo ?? workspace.tier;
  const period = sub.downgradeToPeriod ?? sub.billingPeriod;
  if (!isPaidPlanId(tier)) return null;
  const subtotal = planPriceCents(tier, period, sub.currency);
  const discount = useDiscount(sub.discount).now;
  return toInvoice({
    id: 'upcoming',
    workspaceId: workspace.id,
    kind: 'subscription_cycle',
    status: 'open',
    currency: sub.currency,
    tier,
    billingPeriod: period,
    description: `${tierDisplayNames[tier]} (${period === 'annual_period' ? 'yearly' : 'monthly'})`,
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
  });
}

function pendingChangeOf(state: BillingState): PendingChange | null {
  const { sub } = state;
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

/** The billing half of `GET /v1/user/subscription`. */
export async function subscriptionBilling(db: Db, workspaceId: string) {
  const state = await loadBillingState(db, workspaceId);
  const open = await openInvoices(db, workspaceId);
  return {
    state,
    next_invoice: upcomingInvoice(state),
    open_invoices: open.map(toInvoice),
    has_open_invoices: open.length > 0,
    pending_change: pendingChangeOf(state),
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
  return {
    provider: deps.provider?.name ?? 'none',
    isolated_environment: deps.provider === null,
    payment_provider: paymentProvider,
    can_change_payment_method: canChangePaymentMethod(paymentProvider, workspace.tier, sub.status),
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
    payment_method: sub.card
      ? {
          brand: sub.card.brand,
          last4: sub.card.last4,
          exp_month: sub.card.exp_month,
          exp_year: sub.card.exp_year,
        }
      : null,
    first_month_offer_eligible: isEligibleForFirstMonthOffer(sub.previouslySubscribedTiers),
    previously_subscribed_tiers: sub.previouslySubscribedTiers,
    discount: sub.discount
      ? {
          code: sub.discount.code,
          percent_off: sub.discount.percentOff,
          amount_off: sub.discount.amountOff,
          months_left: sub.discount.monthsLeft,
        }
      : null,
    invoices: (await listInvoices(deps.db, workspaceId)).map(toInvoice),
    max_seats: tierLimits[workspace.tier].maxSeats,
  };
}

// ---- Sessions (hosted pages) ------------------------------------------------------------------------

async function openSession(
  deps: BillingDeps,
  ctx: ProviderContext,
  caller: { workspaceId: string; userId: string | null },
  input: Partial<SessionRow> & Pick<SessionRow, 'kind' | 'returnUrl' | 'successUrl'>,
): Promise<string> {
  const provider = requireProvider(deps);
  const [session] = await ctx.tx
    .insert(billingSessions)
    .values({
      id: `cs_${newId(32)}`,
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      status: 'open',
      currency: ctx.state.sub.currency,
      createdAt: ctx.now,
      expiresAt: new Date(ctx.now.getTime() + SESSION_TTL_MS),
      ...input,
    })
    .returning();
  if (!session) throw new Error('session insert returned nothing');
  return provider.sessionUrl(ctx, session);
}

export async function createCheckoutSession(
  deps: BillingDeps,
  caller: BillingCaller,
  body: {
    subscription_type: PaidPlanId;
    billing_period: BillingPeriod;
    currency: Currency;
    promocode?: string | null | undefined;
    no_default_promocode: boolean;
    idempotency_key?: string | undefined;
  },
): Promise<{ url: string }> {
  requireProvider(deps);
  return idempotent(deps, caller.workspaceId, body.idempotency_key, 'create-checkout-session', body, () =>
    withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
      const { workspace, sub } = ctx.state;
      if (sub.status === 'incomplete') {
        throw conflict(
          'The first payment of your subscription is still open: finish it in the checkout, pay it from the billing portal, or wait a day for it to lapse.',
        );
      }
      if (workspace.tier !== 'free' && workspace.tier !== 'trial') {
        throw conflict('You already have a subscription: change it instead of starting a new one.');
      }
      const promo = body.promocode
        ? await findPromo(ctx.tx, body.promocode, ctx.now, sub.redeemedCodes)
        : null;
      const invoice = firstInvoice({
        plan: body.subscription_type,
        period: body.billing_period,
        currency: body.currency,
        firstMonthEligible: isEligibleForFirstMonthOffer(sub.previouslySubscribedTiers),
        noDefaultPromocode: body.no_default_promocode,
        promo,
      });
      const url = await openSession(deps, ctx, caller, {
        kind: 'checkout',
        tier: body.subscription_type,
        billingPeriod: body.billing_period,
        currency: body.currency,
        priceCents: invoice.priceCents,
        amountDueCents: invoice.amountDueCents,
        discount: invoice.discount,
        returnUrl: `${deps.publicUrl}/pricing`,
        successUrl: `${deps.publicUrl}/app/subscription?checkout=success`,
      });
      return { url };
    }),
  );
}

export async function createPaymentMethodSession(
  deps: BillingDeps,
  caller: BillingCaller,
): Promise<{ url: string }> {
  requireProvider(deps);
  return withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
    assertCanChangeCard(ctx.state);
    const url = await openSession(deps, ctx, caller, {
      kind: 'payment_method',
      returnUrl: `${deps.publicUrl}/app/subscription`,
      successUrl: `${deps.publicUrl}/app/subscription?payment_method=updated`,
    });
    return { url };
  });
}

function assertCanChangeCard({ sub, workspace }: BillingState): void {
  const kind = paymentProviderOf({
    cardPaymentProvider: sub.provider,
    gcpMarketplacePaymentDetails: sub.gcpMarketplacePaymentDetails,
    consolidatedBilling: sub.consolidatedBilling,
  });
  if (!canChangePaymentMethod(kind, workspace.tier, sub.status)) {
    throw conflict('Your workspace has no card subscription whose payment method could be changed.');
  }
}

/** The portal's "change card" button: a card page for the portal's workspace, credentialed by the portal session. */
export async function createCardSessionFromPortal(
  deps: BillingDeps,
  portalSessionId: string,
): Promise<{ url: string }> {
  requireProvider(deps);
  const portal = await findSession(deps.db, portalSessionId, deps.clock.now());
  if (portal.kind !== 'portal')
    throw new AppError('bad_request', 'Cards are changed from the billing portal.');
  if (portal.status === 'expired') {
    throw new AppError('conflict', 'This payment page has expired. Start again from Parla.');
  }
  const caller = { workspaceId: portal.workspaceId, userId: portal.userId };
  return withLockedState(deps, portal.workspaceId, null, async (ctx) => {
    assertCanChangeCard(ctx.state);
    const url = await openSession(deps, ctx, caller, {
      kind: 'payment_method',
      returnUrl: portal.returnUrl,
      successUrl: `${deps.publicUrl}/app/subscription?payment_method=updated`,
    });
    return { url };
  });
}

export async function createPortalSession(
  deps: BillingDeps,
  caller: BillingCaller,
): Promise<{ url: string }> {
  requireProvider(deps);
  return withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
    if (!ctx.state.sub.provider) {
      throw conflict('There is no billing account yet: subscribe to a plan first.');
    }
    const url = await openSession(deps, ctx, caller, {
      kind: 'portal',
      returnUrl: `${deps.publicUrl}/app/subscription`,
      successUrl: `${deps.publicUrl}/app/subscription`,
    });
    return { url };
  });
}

export async function createConnectSession(
  deps: BillingDeps,
  caller: BillingCaller,
  relativeRedirectPath: string,
  mode: 'account' | 'management',
): Promise<{ url: string }> {
  const provider = requireProvider(deps);
  return withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
    if (mode === 'management' && !ctx.state.sub.connectAccountId) {
      throw conflict('There is no payouts account yet: create one first.');
    }
    if (!ctx.state.sub.connectAccountId) {
      await saveSubscription(
        ctx.tx,
        ctx.state,
        { connectAccountId: await provider.createConnectAccount(ctx) },
        ctx.now,
      );
    }
    const back = `${deps.publicUrl}${relativeRedirectPath}`;
    const url = await openSession(deps, ctx, caller, { kind: 'connect', returnUrl: back, successUrl: back });
    return { url };
  });
}

async function findSession(
  db: Db,
  sessionId: string,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<SessionRow> {
  const query = db.select().from(billingSessions).where(eq(billingSessions.id, sessionId));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row)
    throw new AppError('resource_not_found', 'This payment page was not found. Start again from Parla.');
  if ((row.status === 'open' || row.status === 'requires_action') && row.expiresAt <= now) {
    return { ...row, status: 'expired' };
  }
  return row;
}

export async function getHostedSession(deps: BillingDeps, sessionId: string): Promise<HostedSession> {
  const session = await findSession(deps.db, sessionId, deps.clock.now());
  const state = await loadBillingState(deps.db, session.workspaceId);
  const invoices = session.kind === 'portal' ? await listInvoices(deps.db, session.workspaceId) : [];
  const card = state.sub.card;
  return {
    session_id: session.id,
    kind: session.kind,
    status: session.status,
    workspace_name: state.workspace.name,
    plan_name: session.tier ? tierDisplayNames[session.tier] : null,
    billing_period: session.billingPeriod,
    currency: session.currency,
    amount_due_cents: session.amountDueCents,
    price_cents: session.priceCents,
    discount_description: session.discount?.description ?? null,
    last_error: session.lastError,
    payment_method: card
      ? { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year }
      : null,
    invoices: invoices.map(toInvoice),
    return_url: session.returnUrl,
  };
}

type SessionOutcome = { status: 'succeeded' | 'requires_action'; redirect_url: string | null };

/** A session call: the session locked, its workspace locked, the work, then an error raised after commit. */
async function withSession(
  deps: BillingDeps,
  sessionId: string,
  kinds: SessionRow['kind'][],
  work: (ctx: ProviderContext, session: SessionRow) => Promise<SessionOutcome | { declined: string }>,
): Promise<SessionOutcome> {
  const outcome = await deps.events.transaction(async (tx, events) => {
    const now = deps.clock.now();
    const session = await findSession(tx, sessionId, now, { lock: true });
    if (!kinds.includes(session.kind))
      throw new AppError('bad_request', 'This payment page does not take that step.');
    if (session.status === 'expired') {
      throw new AppError('conflict', 'This payment page has expired. Start again from Parla.');
    }
    if (session.status === 'complete')
      throw new AppError('conflict', 'This payment page is already complete.');
    const state = await loadBillingState(tx, session.workspaceId, { lock: true });
    const result = await work({ tx, events, state, now, email: null }, session);
    if ('declined' in result) {
      await tx
        .update(billingSessions)
        .set({ lastError: result.declined, status: 'open', pendingCard: null })
        .where(eq(billingSessions.id, session.id));
    }
    return result;
  });
  // The decline is recorded (an incomplete subscription, the page's last error) before it is answered.
  if ('declined' in outcome) throw new AppError('card_declined', outcome.declined);
  return outcome;
}

export async function submitCard(
  deps: BillingDeps,
  sessionId: string,
  details: CardDetails,
): Promise<SessionOutcome> {
  return withSession(deps, sessionId, ['checkout', 'payment_method'], async (ctx, session) => {
    if (session.kind === 'checkout') assertCheckoutStillApplies(ctx.state);
    const read = readCard(details, ctx.now);
    if ('error' in read) return { declined: read.error };
    if (read.card.behaviour === 'requires_authentication') {
      await ctx.tx
        .update(billingSessions)
        .set({ status: 'requires_action', pendingCard: read.card, lastError: null })
        .where(eq(billingSessions.id, session.id));
      return { status: 'requires_action', redirect_url: null };
    }
    return completeWithCard(ctx, session, read.card, requireProvider(deps));
  });
}

export async function authenticateSession(
  deps: BillingDeps,
  sessionId: string,
  approve: boolean,
): Promise<SessionOutcome> {
  return withSession(deps, sessionId, ['checkout', 'payment_method'], async (ctx, session) => {
    if (session.status !== 'requires_action' || !session.pendingCard) {
      throw new AppError('conflict', 'This payment needs no authentication.');
    }
    if (session.kind === 'checkout') assertCheckoutStillApplies(ctx.state);
    if (!approve) {
      const message =
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
      if (session.kind === 'checkout') await markIncomplete(ctx, session);
      return { declined: message };
    }
    // Once authenticated, the card is set up: later charges go through without the second step.
    return completeWithCard(
      ctx,
      session,
      { ...session.pendingCard, behaviour: 'succeeds' },
      requireProvider(deps),
    );
  });
}

async function completeWithCard(
  ctx: ProviderContext,
  session: SessionRow,
  card: StoredCard,
  provider: BillingProvider,
): Promise<SessionOutcome | { declined: string }> {
  if (session.kind === 'payment_method') {
    const refusal = cardRefusal(card.behaviour, 'save');
    if (refusal) return { declined: refusal };
    await saveSubscription(ctx.tx, ctx.state, { card }, ctx.now);
    await finishSession(ctx, session);
    // A new card pays what is owed straight away. Each invoice is read again first: paying a first invoice
    // starts the plan and voids any other unpaid first invoice.
    for (const listed of await openInvoices(ctx.tx, ctx.state.workspace.id)) {
      const invoice = await findInvoice(ctx.tx, ctx.state.workspace.id, listed.id);
      if (invoice.status === 'open') await payInvoiceWithCard(ctx, invoice, provider);
    }
    return { status: 'succeeded', redirect_url: session.successUrl };
  }
  const refusal = cardRefusal(card.behaviour, 'charge');
  if (refusal) {
    await markIncomplete(ctx, session);
    return { declined: refusal };
  }
  await activateFromCheckout(ctx, session, card);
  await finishSession(ctx, session);
  return { status: 'succeeded', redirect_url: session.successUrl };
}

/**
 * A checkout pays only while the workspace has no plan: another checkout paid meanwhile, or a plan set
 * otherwise, makes this one moot, and nothing is charged.
 */
function assertCheckoutStillApplies({ workspace, sub }: BillingState): void {
  if ((workspace.tier !== 'free' && workspace.tier !== 'trial') || sub.status === 'active') {
    throw conflict(
      'This workspace already has a subscription, so nothing was charged. Manage it from the subscription page.',
    );
  }
}

export async function finishSession(ctx: ProviderContext, session: SessionRow): Promise<void> {
  await ctx.tx
    .update(billingSessions)
    .set({ status: 'complete', pendingCard: null, lastError: null })
    .where(eq(billingSessions.id, session.id));
}

/**
 * A declined first payment: the subscription is incomplete (accounts §4 payment trouble) with the first
 * invoice open, until it is paid or lapses after 23 hours. The tier stays free meanwhile.
 */
async function markIncomplete(ctx: ProviderContext, session: SessionRow): Promise<void> {
  if (!session.tier || !session.billingPeriod) return;
  let invoiceId = session.invoiceId;
  if (!invoiceId) {
    const invoice = await insertInvoice(ctx.tx, {
      workspaceId: session.workspaceId,
      kind: 'subscription_create',
      tier: session.tier,
      billingPeriod: session.billingPeriod,
      currency: session.currency,
      description: `${tierDisplayNames[session.tier]} (${session.billingPeriod === 'annual_period' ? 'yearly' : 'monthly'})`,
      subtotalCents: session.priceCents ?? 0,
      amountDueCents: session.amountDueCents ?? 0,
      discountAmountOff: session.discount?.amountOff ?? null,
      discountPercentOff: session.discount?.percentOff ?? null,
      periodStart: ctx.now,
      periodEnd: addPeriod(ctx.now, session.billingPeriod),
      paid: false,
      now: ctx.now,
    });
    invoiceId = invoice.id;
    await ctx.tx.update(billingSessions).set({ invoiceId }).where(eq(billingSessions.id, session.id));
  }
  await saveSubscription(
    ctx.tx,
    ctx.state,
    {
      status: 'incomplete',
      provider: 'test',
      currency: session.currency,
      incompleteExpiresAt: new Date(ctx.now.getTime() + INCOMPLETE_TTL_MS),
    },
    ctx.now,
  );
}

/** A paid first invoice: the plan starts now, with a fresh credit period. */
export async function activateFromCheckout(
  ctx: ProviderContext,
  session: SessionRow,
  card: StoredCard | null,
): Promise<void> {
  if (!session.tier || !session.billingPeriod || !isPaidPlanId(session.tier)) return;
  const { tier, billingPeriod } = session;
  const periodEnd = addPeriod(ctx.now, billingPeriod);
  if (session.invoiceId) {
    await markInvoicePaid(ctx.tx, session.invoiceId, ctx.now);
  } else {
    await insertInvoice(ctx.tx, {
      workspaceId: session.workspaceId,
      kind: 'subscription_create',
      tier,
      billingPeriod,
      currency: session.currency,
      description: `${tierDisplayNames[tier]} (${billingPeriod === 'annual_period' ? 'yearly' : 'monthly'})`,
      subtotalCents: session.priceCents ?? 0,
      amountDueCents: session.amountDueCents ?? 0,
      discountAmountOff: session.discount?.amountOff ?? null,
      discountPercentOff: session.discount?.percentOff ?? null,
      periodStart: ctx.now,
      periodEnd,
      paid: true,
      now: ctx.now,
    });
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
  ctx: ProviderContext,
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
  await setWorkspaceTier(ctx.tx, ctx.state, plan.tier);
  await resetCredits(ctx.tx, ctx.state, addPeriod(ctx.now, 'month'), ctx.now);
  // The plan is set: any other checkout of this workspace is moot, and any other unpaid first invoice void.
  await ctx.tx
    .update(billingSessions)
    .set({ status: 'expired' })
    .where(
      and(
        eq(billingSessions.workspaceId, ctx.state.workspace.id),
        eq(billingSessions.kind, 'checkout'),
        sql`${billingSessions.status} in ('open', 'requires_action')`,
      ),
    );
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
async function payInvoiceWithCard(
  ctx: ProviderContext,
  invoice: InvoiceRow,
  provider: BillingProvider,
): Promise<boolean> {
  const result = await provider.charge(ctx, invoice);
  if (!result.ok) {
    await ctx.tx
      .update(billingInvoices)
      .set({ attempts: sql`${billingInvoices.attempts} + 1` })
      .where(eq(billingInvoices.id, invoice.id));
    return false;
  }
  await markInvoicePaid(ctx.tx, invoice.id, ctx.now);
  if (
    invoice.kind === 'subscription_create' &&
    ctx.state.sub.status === 'incomplete' &&
    isPaidPlanId(invoice.tier)
  ) {
    // The checkout's promo keeps discounting the invoices after this one.
    const [session] = await ctx.tx
      .select({ discount: billingSessions.discount })
      .from(billingSessions)
      .where(eq(billingSessions.invoiceId, invoice.id));
    await startPlan(ctx, {
      tier: invoice.tier,
      billingPeriod: invoice.billingPeriod,
      currency: invoice.currency,
      card: null,
      discount: session?.discount ? useDiscount(session.discount).left : null,
      redeemedCode: session?.discount?.code ?? null,
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
export async function clearPaymentTroubleIfPaidUp(ctx: ProviderContext): Promise<void> {
  const { status } = ctx.state.sub;
  if (status !== 'past_due' && status !== 'free_disabled') return;
  if ((await openInvoices(ctx.tx, ctx.state.workspace.id)).length > 0) return;
  await saveSubscription(ctx.tx, ctx.state, { status: status === 'past_due' ? 'active' : 'free' }, ctx.now);
}

export async function payInvoiceFromPortal(
  deps: BillingDeps,
  sessionId: string,
  invoiceId: string,
): Promise<void> {
  const provider = requireProvider(deps);
  const paid = await deps.events.transaction(async (tx, events) => {
    const now = deps.clock.now();
    const session = await findSession(tx, sessionId, now);
    if (session.kind !== 'portal')
      throw new AppError('bad_request', 'Invoices are paid from the billing portal.');
    if (session.status === 'expired')
      throw new AppError('conflict', 'This payment page has expired. Start again from Parla.');
    const state = await loadBillingState(tx, session.workspaceId, { lock: true });
    const invoice = await findInvoice(tx, session.workspaceId, invoiceId);
    if (invoice.status !== 'open') throw new AppError('conflict', 'This invoice is not open.');
    return payInvoiceWithCard({ tx, events, state, now, email: null }, invoice, provider);
  });
  if (!paid) throw new AppError('card_declined', 'Your card was declined. Change the card and try again.');
}

export async function completeConnectSession(deps: BillingDeps, sessionId: string): Promise<SessionOutcome> {
  return withSession(deps, sessionId, ['connect'], async (ctx, session) => {
    await finishSession(ctx, session);
    return { status: 'succeeded', redirect_url: session.successUrl };
  });
}

// ---- Changes to a subscription ----------------------------------------------------------------------

function requirePaidSubscription(state: BillingState): void {
  if (isEnterpriseTier(state.workspace.tier)) {
    throw conflict('Enterprise plans are changed through your account manager.');
  }
  if (state.workspace.tier === 'free' || !state.sub.billingPeriod || !state.sub.currentPeriodEnd) {
    throw conflict('You have no paid subscription to change: subscribe to a plan first.');
  }
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
        if (action === 'downgrade') {
          if (body.promocode) {
            throw conflict('A promo code applies to a subscription or an upgrade, not to a downgrade.');
          }
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
        if (action !== 'upgrade' || body.subscription_type === 'free') {
          throw conflict('You are already on this plan: nothing to change.');
        }
        if (state.sub.status !== 'active') {
          throw conflict('Your subscription must be active to upgrade: pay the open invoice first.');
        }
        const { sub } = state;
        const proration = prorateUpgrade({
          currentTier: state.workspace.tier,
          currentPeriod: sub.billingPeriod as BillingPeriod,
          periodStart: sub.currentPeriodStart ?? ctx.now,
          periodEnd: sub.currentPeriodEnd as Date,
          now: ctx.now,
          target: body.subscription_type,
          targetPeriod: body.billing_period,
          currency: sub.currency,
        });
        const promo = body.promocode
          ? await findPromo(ctx.tx, body.promocode, ctx.now, sub.redeemedCodes)
          : null;
        const discount = promo ? useDiscount(promo) : useDiscount(sub.discount);
        const invoice = await insertInvoice(ctx.tx, {
          workspaceId: state.workspace.id,
          kind: 'subscription_update',
          tier: body.subscription_type,
          billingPeriod: body.billing_period,
          currency: sub.currency,
          description: `Upgrade to ${tierDisplayNames[body.subscription_type]}, less ${(proration.unusedCreditCents / 100).toFixed(2)} unused on ${tierDisplayNames[state.workspace.tier]}`,
          subtotalCents: proration.subtotalCents,
          amountDueCents: discounted(proration.subtotalCents, discount.now),
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
        await provider.changePlanNow(ctx, { tier: body.subscription_type, period: body.billing_period });
        await setWorkspaceTier(ctx.tx, state, body.subscription_type);
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
            previouslySubscribedTiers: withPreviousTier(
              sub.previouslySubscribedTiers,
              body.subscription_type,
            ),
            discount: discount.left,
            redeemedCodes: withRedeemed(sub.redeemedCodes, promo?.code),
          },
          ctx.now,
        );
        // The new period starts now, and the monthly credit reset with it (credits used so far stay used).
        await ctx.tx
          .update(workspaces)
          .set({ nextCharacterCountResetAt: addPeriod(ctx.now, 'month') })
          .where(eq(workspaces.id, state.workspace.id));
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

/** accounts §9 discount codes special-offer-30/50/70: that percentage off the next invoice. */
export async function applyDiscount(
  deps: BillingDeps,
  caller: BillingCaller,
  code: string,
  key?: string,
): Promise<{ status: 'ok' }> {
  const provider = requireProvider(deps);
  return idempotent(deps, caller.workspaceId, key, 'apply-discount', { code }, () =>
    withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
      if (!(DISCOUNT_CODES as readonly string[]).includes(code)) {
        throw new AppError('invalid_promocode', `Discount code ${code} is invalid`);
      }
      requirePaidSubscription(ctx.state);
      // One special offer per workspace: they are not to be stacked renewal after renewal.
      if (ctx.state.sub.redeemedCodes.some((used) => (DISCOUNT_CODES as readonly string[]).includes(used))) {
        throw conflict('This workspace has already used a special offer.');
      }
      const percentOff = Number(code.split('-').at(-1));
      const discount = { code, percentOff, amountOff: null, monthsLeft: 1 };
      await provider.applyDiscount(ctx, discount);
      await saveSubscription(
        ctx.tx,
        ctx.state,
        { discount, redeemedCodes: withRedeemed(ctx.state.sub.redeemedCodes, code) },
        ctx.now,
      );
      return { status: 'ok' as const };
    }),
  );
}

export async function validatePromocode(
  deps: BillingDeps,
  caller: BillingCaller,
  code: string,
): Promise<PromoValidation> {
  try {
    const { sub } = await loadBillingState(deps.db, caller.workspaceId);
    const promo = await findPromo(deps.db, code, deps.clock.now(), sub.redeemedCodes);
    return {
      valid: true,
      promocode: promo.code,
      amount_off: promo.amountOff,
      percent_off: promo.percentOff,
      duration_in_months: promo.monthsLeft,
    };
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_promocode') {
      return { valid: false, promocode: code, amount_off: null, percent_off: null, duration_in_months: null };
    }
    throw error;
  }
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

/** Makes a promo code (admin command line). */
export async function createPromoCode(
  db: Db,
  input: {
    code: string;
    amountOff?: number | null;
    percentOff?: number | null;
    durationInMonths?: number;
    expiresAt?: Date | null;
  },
): Promise<void> {
  if ((input.amountOff == null) === (input.percentOff == null)) {
    throw new AppError('bad_request', 'A promo code takes an amount off or a percentage off, not both.');
  }
  await db
    .insert(promoCodes)
    .values({
      code: input.code,
      amountOff: input.amountOff ?? null,
      percentOff: input.percentOff ?? null,
      durationInMonths: input.durationInMonths ?? 1,
      expiresAt: input.expiresAt ?? null,
    })
    .onConflictDoUpdate({
      target: promoCodes.code,
      set: {
        amountOff: input.amountOff ?? null,
        percentOff: input.percentOff ?? null,
        durationInMonths: input.durationInMonths ?? 1,
        expiresAt: input.expiresAt ?? null,
      },
    });
}

// ---- Renewals ---------------------------------------------------------------------------------------

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
    const due = await deps.db
      .select({ workspaceId: billingSubscriptions.workspaceId })
      .from(billingSubscriptions)
      .where(lte(billingSubscriptions.currentPeriodEnd, now));
    for (const { workspaceId } of due) {
      await deps.events.transaction(async (tx, events) => {
        const state = await loadBillingState(tx, workspaceId, { lock: true });
        const ctx: ProviderContext = { tx, events, state, now, email: null };
        // Several periods may have passed while the server was down: each is closed in turn.
        for (let guard = 0; guard < 36; guard++) {
          const end = ctx.state.sub.currentPeriodEnd;
          if (!end || end > now) break;
          await closePeriod(ctx, provider, end);
          renewed++;
        }
      });
    }
    const retries = await deps.db
      .select({ id: billingInvoices.id, workspaceId: billingInvoices.workspaceId })
      .from(billingInvoices)
      .where(
        and(
          eq(billingInvoices.status, 'open'),
          eq(billingInvoices.kind, 'subscription_cycle'),
          isNotNull(billingInvoices.nextPaymentAttemptAt),
          lte(billingInvoices.nextPaymentAttemptAt, now),
        ),
      );
    for (const due of retries) {
      await deps.events.transaction(async (tx, events) => {
        const state = await loadBillingState(tx, due.workspaceId, { lock: true });
        // Read again under the lock: it may have been paid from the portal since the list was made.
        const invoice = await findInvoice(tx, due.workspaceId, due.id);
        if (invoice.status !== 'open') return;
        const ctx: ProviderContext = { tx, events, state, now, email: null };
        if (await payInvoiceWithCard(ctx, invoice, provider)) return;
        const lastTry = invoice.attempts + 1 >= MAX_RENEWAL_ATTEMPTS;
        await tx
          .update(billingInvoices)
          .set({ nextPaymentAttemptAt: lastTry ? null : new Date(now.getTime() + RETRY_AFTER_MS) })
          .where(eq(billingInvoices.id, invoice.id));
        // The last retry failed: the plan ends, and the workspace stays disabled (free_disabled, accounts
        // §4) until the open invoice is paid.
        if (lastTry && ctx.state.sub.status === 'past_due') await endPlan(ctx, provider, 'free_disabled');
      });
    }
    const lapsed = await deps.db
      .select({ workspaceId: billingSubscriptions.workspaceId })
      .from(billingSubscriptions)
      .where(
        and(
          eq(billingSubscriptions.status, 'incomplete'),
          lte(billingSubscriptions.incompleteExpiresAt, now),
        ),
      );
    for (const { workspaceId } of lapsed) {
      await deps.events.transaction(async (tx, _events) => {
        const state = await loadBillingState(tx, workspaceId, { lock: true });
        const expiry = state.sub.incompleteExpiresAt;
        if (state.sub.status !== 'incomplete' || !expiry || expiry > now) return;
        await voidOpenFirstInvoices(tx, workspaceId);
        await saveSubscription(tx, state, { status: 'free', incompleteExpiresAt: null }, now);
      });
    }
  }
  // Monthly credit refresh where no billing period ended: free plans, and annual plans between renewals.
  const refresh = await deps.db
    .select({ id: workspaces.id, next: workspaces.nextCharacterCountResetAt })
    .from(workspaces)
    .where(lte(workspaces.nextCharacterCountResetAt, now));
  for (const { id } of refresh) {
    await deps.events.transaction(async (tx, _events) => {
      const state = await loadBillingState(tx, id, { lock: true });
      const due = state.workspace.nextCharacterCountResetAt;
      if (!due || due > now) return;
      // A billing period ending by then resets the credits when it closes (here, or by the provider's
      // webhook): resetting now as well would reset twice.
      const periodEnd = state.sub.currentPeriodEnd;
      if (periodEnd && periodEnd.getTime() <= due.getTime() + 60_000) return;
      // Monthly boundaries counted from the period's start (or the workspace's creation).
      const anchor = state.sub.currentPeriodStart ?? state.workspace.createdAt;
      await resetCredits(tx, state, nextMonthlyReset(anchor, now), now);
      reset++;
    });
  }
  await deps.db
    .update(billingSessions)
    .set({ status: 'expired' })
    .where(
      and(sql`${billingSessions.status} in ('open', 'requires_action')`, lte(billingSessions.expiresAt, now)),
    );
  return { renewed, reset };
}

/** Back to free: `free`, or `free_disabled` when the plan ended unpaid. */
export async function endPlan(
  ctx: ProviderContext,
  provider: BillingProvider,
  status: 'free' | 'free_disabled',
): Promise<void> {
  if (ctx.state.sub.downgradeTo) await provider.scheduleDowngrade(ctx, null);
  await setWorkspaceTier(ctx.tx, ctx.state, 'free');
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

/** Closes the period ending at `end` and opens the next, or ends the plan. */
async function closePeriod(ctx: ProviderContext, provider: BillingProvider, end: Date): Promise<void> {
  const { state } = ctx;
  const { sub } = state;
  const endsPlan = sub.cancelAtPeriodEnd || sub.downgradeTo === 'free' || !sub.billingPeriod;
  if (endsPlan) {
    await endPlan(ctx, provider, 'free');
    await resetCredits(ctx.tx, state, addPeriod(end, 'month'), ctx.now);
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
    await resetCredits(ctx.tx, state, addPeriod(end, 'month'), ctx.now);
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
    description: `${tierDisplayNames[tier]} (${period === 'annual_period' ? 'yearly' : 'monthly'})`,
    subtotalCents: subtotal,
    amountDueCents: discounted(subtotal, discount.now),
    discountPercentOff: discount.now?.percentOff ?? null,
    discountAmountOff: discount.now?.amountOff ?? null,
    periodStart: end,
    periodEnd: nextEnd,
    paid: false,
    now: ctx.now,
  });
  await setWorkspaceTier(ctx.tx, state, tier);
  const charged = await provider.charge(ctx, invoice);
  if (charged.ok) await markInvoicePaid(ctx.tx, invoice.id, ctx.now);
  else {
    await ctx.tx
      .update(billingInvoices)
      .set({ nextPaymentAttemptAt: new Date(ctx.now.getTime() + RETRY_AFTER_MS) })
      .where(eq(billingInvoices.id, invoice.id));
  }
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
  await resetCredits(ctx.tx, state, addPeriod(end, 'month'), ctx.now);
}
