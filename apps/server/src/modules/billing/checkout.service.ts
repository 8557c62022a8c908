import {
  type BillingPeriod,
  type CardDetails,
  type Currency,
  canChangePaymentMethod,
  type HostedSession,
  isEligibleForFirstMonthOffer,
  type PaidPlanId,
  paymentProviderOf,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { BillingProvider, HostedCardProcessor } from '../../providers/billing/billing-provider';
import {
  type BillingCaller,
  type BillingContext,
  type BillingDeps,
  billingContext,
  conflict,
  idempotent,
  lockBillingState,
  requireProvider,
  withLockedState,
} from './billing.context';
import { presentHostedSession } from './billing.present';
import { addPeriod, describePlan, firstInvoice } from './billing.pricing';
import {
  findInvoice,
  insertInvoice,
  listInvoices,
  loadBillingState,
  openInvoices,
  saveSubscription,
} from './billing.store';
import type { BillingState, SessionRow, StoredCard } from './billing.tables';
import { activateFromCheckout, payInvoiceWithCard } from './billing-lifecycle.service';
import {
  completeSessionRow,
  findSessionRow,
  holdSessionCard,
  insertSession,
  recordSessionDecline,
  setSessionInvoice,
} from './billing-sessions.store';
import { findPromo } from './promo-codes.service';

/**
 * The hosted pages (issue 5): checkout, card change, billing portal and payouts sessions — opened by the
 * workspace's admin, then driven by whoever holds the session's secret URL.
 */

const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** An unpaid first invoice gives up after 23 hours, as card processors' incomplete subscriptions do. */
const INCOMPLETE_TTL_MS = 23 * 60 * 60 * 1000;

type SessionOutcome = { status: 'succeeded' | 'requires_action'; redirect_url: string | null };

async function openSession(
  deps: BillingDeps,
  ctx: BillingContext,
  caller: { workspaceId: string; userId: string | null },
  input: Partial<SessionRow> & Pick<SessionRow, 'kind' | 'returnUrl' | 'successUrl'>,
): Promise<string> {
  const provider = requireProvider(deps);
  const session = await insertSession(ctx.tx, {
    id: `cs_${newId(32)}`,
    workspaceId: caller.workspaceId,
    userId: caller.userId,
    status: 'open',
    currency: ctx.state.sub.currency,
    createdAt: ctx.now,
    expiresAt: new Date(ctx.now.getTime() + SESSION_TTL_MS),
    ...input,
  });
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
        returnUrl: '/pricing',
        successUrl: '/app/subscription?checkout=success',
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
      returnUrl: '/app/subscription',
      successUrl: '/app/subscription?payment_method=updated',
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
      successUrl: '/app/subscription?payment_method=updated',
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
      returnUrl: '/app/subscription',
      successUrl: '/app/subscription',
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
    const back = relativeRedirectPath;
    const url = await openSession(deps, ctx, caller, { kind: 'connect', returnUrl: back, successUrl: back });
    return { url };
  });
}

/** A session by id, expired once its time ran out (whatever the row still says). */
async function findSession(
  db: Db,
  sessionId: string,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<SessionRow> {
  const row = await findSessionRow(db, sessionId, options);
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
  return presentHostedSession(session, state.workspace.name, state.sub.card, invoices);
}

/** A session call: the session locked, its workspace locked, the work, then an error raised after commit. */
async function withSession(
  deps: BillingDeps,
  sessionId: string,
  kinds: SessionRow['kind'][],
  work: (ctx: BillingContext, session: SessionRow) => Promise<SessionOutcome | { declined: string }>,
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
    const state = await lockBillingState(tx, session.workspaceId);
    const result = await work(billingContext(tx, events, state, now, null), session);
    if ('declined' in result) await recordSessionDecline(tx, session.id, result.declined);
    return result;
  });
  // The decline is recorded (an incomplete subscription, the page's last error) before it is answered.
  if ('declined' in outcome) throw new AppError('card_declined', outcome.declined);
  return outcome;
}

/**
 * The provider whose card processor reads the cards entered on this server's hosted pages (the built-in
 * test provider's test cards). A provider whose own pages take the cards (Stripe Checkout) never sends
 * anyone to ours, so a card sent to them is refused and nothing is charged.
 */
function requireHostedCards(deps: BillingDeps): { provider: BillingProvider; cards: HostedCardProcessor } {
  const provider = requireProvider(deps);
  if (!provider.hostedCards) {
    throw new AppError('bad_request', 'Cards are entered on the payment provider’s own page, not here.');
  }
  return { provider, cards: provider.hostedCards };
}

export async function submitCard(
  deps: BillingDeps,
  sessionId: string,
  details: CardDetails,
): Promise<SessionOutcome> {
  const processor = requireHostedCards(deps);
  return withSession(deps, sessionId, ['checkout', 'payment_method'], async (ctx, session) => {
    if (session.kind === 'checkout') assertCheckoutStillApplies(ctx.state);
    const read = processor.cards.readCard(details, ctx.now);
    if ('error' in read) return { declined: read.error };
    if (read.card.behaviour === 'requires_authentication') {
      await holdSessionCard(ctx.tx, session.id, read.card);
      return { status: 'requires_action', redirect_url: null };
    }
    return completeWithCard(ctx, session, read.card, processor);
  });
}

export async function authenticateSession(
  deps: BillingDeps,
  sessionId: string,
  approve: boolean,
): Promise<SessionOutcome> {
  const processor = requireHostedCards(deps);
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
    return completeWithCard(ctx, session, { ...session.pendingCard, behaviour: 'succeeds' }, processor);
  });
}

async function completeWithCard(
  ctx: BillingContext,
  session: SessionRow,
  card: StoredCard,
  { provider, cards }: { provider: BillingProvider; cards: HostedCardProcessor },
): Promise<SessionOutcome | { declined: string }> {
  if (session.kind === 'payment_method') {
    const refusal = cards.refusal(card, 'save');
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
  const refusal = cards.refusal(card, 'charge');
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

export async function finishSession(ctx: BillingContext, session: SessionRow): Promise<void> {
  await completeSessionRow(ctx.tx, session.id);
}

/**
 * A declined first payment: the subscription is incomplete (accounts §4 payment trouble) with the first
 * invoice open, until it is paid or lapses after 23 hours. The tier stays free meanwhile.
 */
async function markIncomplete(ctx: BillingContext, session: SessionRow): Promise<void> {
  if (!session.tier || !session.billingPeriod) return;
  let invoiceId = session.invoiceId;
  if (!invoiceId) {
    const invoice = await insertInvoice(ctx.tx, {
      workspaceId: session.workspaceId,
      kind: 'subscription_create',
      tier: session.tier,
      billingPeriod: session.billingPeriod,
      currency: session.currency,
      description: describePlan(session.tier, session.billingPeriod),
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
    await setSessionInvoice(ctx.tx, session.id, invoiceId);
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
    const state = await lockBillingState(tx, session.workspaceId);
    const invoice = await findInvoice(tx, session.workspaceId, invoiceId);
    if (invoice.status !== 'open') throw new AppError('conflict', 'This invoice is not open.');
    return payInvoiceWithCard(billingContext(tx, events, state, now, null), invoice, provider);
  });
  if (!paid) throw new AppError('card_declined', 'Your card was declined. Change the card and try again.');
}

export async function completeConnectSession(deps: BillingDeps, sessionId: string): Promise<SessionOutcome> {
  return withSession(deps, sessionId, ['connect'], async (ctx, session) => {
    await finishSession(ctx, session);
    return { status: 'succeeded', redirect_url: session.successUrl };
  });
}
