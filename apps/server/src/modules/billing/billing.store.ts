import type { BillingPeriod, Currency, SubscriptionTier } from '@parla/contracts';
import { and, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import type { BillingState, SubscriptionRow } from './billing.tables';
import {
  billingCreditPeriods,
  billingInvoices,
  billingSubscriptions,
  billingWebhookEvents,
  type InvoiceKind,
  type InvoiceRow,
} from './billing.tables';

/** A month after `date` (a workspace's first credit reset), as PostgreSQL's `+ interval '1 month'` counts it. */
function monthAfter(date: Date): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + 1);
  // Past the month's end (Jan 31 → Mar 3): the month's last day, as PostgreSQL answers.
  if (next.getUTCDate() !== date.getUTCDate()) next.setUTCDate(0);
  return next;
}

/** A workspace with no billing row yet is free, in dollars, with nothing on file. */
export function defaultSubscription(workspaceId: string, tier: SubscriptionTier): SubscriptionRow {
  return {
    workspaceId,
    status: tier === 'free' ? 'free' : 'active',
    billingPeriod: null,
    currency: 'usd',
    currentPeriodStart: null,
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    downgradeTo: null,
    downgradeToPeriod: null,
    previouslySubscribedTiers: [],
    provider: null,
    providerCustomerId: null,
    providerSubscriptionId: null,
    providerScheduleId: null,
    card: null,
    discount: null,
    gcpMarketplacePaymentDetails: null,
    consolidatedBilling: null,
    connectAccountId: null,
    redeemedCodes: [],
    incompleteExpiresAt: null,
    updatedAt: new Date(0),
  };
}

/** The next credit reset of a workspace row joined with its credit period: a month after its start by default. */
const nextCreditReset = sql<Date>`coalesce(${billingCreditPeriods.nextResetAt}, ${workspaces.createdAt} + interval '1 month')`;

/**
 * The workspace and its subscription. To change them, take the workspace's lock first (lockBillingState):
 * this read must come after the lock, in a statement of its own.
 */
export async function loadBillingState(db: Db, workspaceId: string): Promise<BillingState> {
  const query = db
    .select({
      workspace: workspaces,
      sub: billingSubscriptions,
      nextCreditResetAt: billingCreditPeriods.nextResetAt,
    })
    .from(workspaces)
    .leftJoin(billingSubscriptions, eq(billingSubscriptions.workspaceId, workspaces.id))
    .leftJoin(billingCreditPeriods, eq(billingCreditPeriods.workspaceId, workspaces.id))
    .where(eq(workspaces.id, workspaceId));
  const [row] = await query;
  if (!row) throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
  return {
    workspace: row.workspace,
    sub: row.sub ?? defaultSubscription(workspaceId, row.workspace.tier),
    nextCreditResetAt: row.nextCreditResetAt ?? monthAfter(row.workspace.createdAt),
  };
}

/** Writes the subscription row (insert or update) with `changes`. */
export async function saveSubscription(
  db: Db,
  state: BillingState,
  changes: Partial<SubscriptionRow>,
  now: Date,
) {
  const next = { ...state.sub, ...changes, workspaceId: state.workspace.id, updatedAt: now };
  await db
    .insert(billingSubscriptions)
    .values(next)
    .onConflictDoUpdate({ target: billingSubscriptions.workspaceId, set: { ...changes, updatedAt: now } });
  state.sub = next;
}

/** The email of a user (what a provider's customer record is made with), null when the user is gone. */
export async function findUserEmail(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

/** Moves a workspace's next monthly credit reset (accounts §3 next_character_count_reset_unix). */
export async function saveNextCreditReset(db: Db, workspaceId: string, next: Date): Promise<void> {
  await db
    .insert(billingCreditPeriods)
    .values({ workspaceId, nextResetAt: next })
    .onConflictDoUpdate({ target: billingCreditPeriods.workspaceId, set: { nextResetAt: next } });
}

export async function insertInvoice(
  db: Db,
  input: {
    workspaceId: string;
    kind: InvoiceKind;
    tier: SubscriptionTier;
    billingPeriod: BillingPeriod;
    currency: Currency;
    description: string;
    subtotalCents: number;
    amountDueCents: number;
    discountPercentOff?: number | null;
    discountAmountOff?: number | null;
    periodStart: Date;
    periodEnd: Date;
    paid: boolean;
    now: Date;
    nextPaymentAttemptAt?: Date | null;
    /** The provider's own invoice (Stripe's `in_…`), when the provider issued it. */
    providerInvoiceId?: string | null;
  },
): Promise<InvoiceRow> {
  const [row] = await db
    .insert(billingInvoices)
    .values({
      id: `in_${newId(20)}`,
      workspaceId: input.workspaceId,
      kind: input.kind,
      status: input.paid ? 'paid' : 'open',
      currency: input.currency,
      tier: input.tier,
      billingPeriod: input.billingPeriod,
      description: input.description,
      subtotalCents: input.subtotalCents,
      discountPercentOff: input.discountPercentOff ?? null,
      discountAmountOff: input.discountAmountOff ?? null,
      amountDueCents: input.amountDueCents,
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      paymentIntentStatus: input.paid ? 'succeeded' : 'requires_payment_method',
      attempts: 1,
      nextPaymentAttemptAt: input.paid ? null : (input.nextPaymentAttemptAt ?? null),
      providerInvoiceId: input.providerInvoiceId ?? null,
      createdAt: input.now,
      paidAt: input.paid ? input.now : null,
    })
    .returning();
  if (!row) throw new Error('invoice insert returned nothing');
  return row;
}

export async function markInvoicePaid(db: Db, invoiceId: string, now: Date): Promise<void> {
  await db
    .update(billingInvoices)
    .set({ status: 'paid', paidAt: now, paymentIntentStatus: 'succeeded', nextPaymentAttemptAt: null })
    .where(eq(billingInvoices.id, invoiceId));
}

/** An invoice no longer owed: void, its payment cancelled, no more attempts. */
export async function voidInvoice(db: Db, invoiceId: string): Promise<void> {
  await db
    .update(billingInvoices)
    .set({ status: 'void', paymentIntentStatus: 'canceled', nextPaymentAttemptAt: null })
    .where(eq(billingInvoices.id, invoiceId));
}

/** Voids a workspace's unpaid first invoices (a plan started another way, or the checkout lapsed). */
export async function voidOpenFirstInvoices(db: Db, workspaceId: string): Promise<void> {
  await db
    .update(billingInvoices)
    .set({ status: 'void', paymentIntentStatus: 'canceled', nextPaymentAttemptAt: null })
    .where(
      and(
        eq(billingInvoices.workspaceId, workspaceId),
        eq(billingInvoices.kind, 'subscription_create'),
        eq(billingInvoices.status, 'open'),
      ),
    );
}

export async function listInvoices(db: Db, workspaceId: string, limit = 24): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(billingInvoices)
    .where(eq(billingInvoices.workspaceId, workspaceId))
    .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.id))
    .limit(limit);
}

export async function openInvoices(db: Db, workspaceId: string): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.workspaceId, workspaceId), eq(billingInvoices.status, 'open')))
    .orderBy(billingInvoices.createdAt);
}

export async function findInvoice(db: Db, workspaceId: string, invoiceId: string): Promise<InvoiceRow> {
  const [row] = await db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.workspaceId, workspaceId), eq(billingInvoices.id, invoiceId)));
  if (!row) throw new AppError('resource_not_found', 'This invoice was not found.');
  return row;
}

/** The next charge attempt of an open invoice; null: no more attempts. */
export async function setNextPaymentAttempt(db: Db, invoiceId: string, at: Date | null): Promise<void> {
  await db.update(billingInvoices).set({ nextPaymentAttemptAt: at }).where(eq(billingInvoices.id, invoiceId));
}

/** Counts a failed charge of an invoice. */
export async function countFailedCharge(db: Db, invoiceId: string): Promise<void> {
  await db
    .update(billingInvoices)
    .set({ attempts: sql`${billingInvoices.attempts} + 1` })
    .where(eq(billingInvoices.id, invoiceId));
}

// ---- The renewal job's lists --------------------------------------------------------------------------

/** Workspaces whose billing period has ended by `now`. */
export async function listPeriodsEnded(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: billingSubscriptions.workspaceId })
    .from(billingSubscriptions)
    .where(lte(billingSubscriptions.currentPeriodEnd, now));
  return rows.map((row) => row.workspaceId);
}

/** Open renewal invoices whose next charge attempt is due. */
export async function listRenewalRetriesDue(
  db: Db,
  now: Date,
): Promise<{ id: string; workspaceId: string }[]> {
  return db
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
}

/** Workspaces whose unpaid first invoice has given up by `now`. */
export async function listLapsedIncomplete(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: billingSubscriptions.workspaceId })
    .from(billingSubscriptions)
    .where(
      and(eq(billingSubscriptions.status, 'incomplete'), lte(billingSubscriptions.incompleteExpiresAt, now)),
    );
  return rows.map((row) => row.workspaceId);
}

/** Workspaces whose monthly credit reset is due by `now` (none stored: a month after the workspace began). */
export async function listCreditResetsDue(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .leftJoin(billingCreditPeriods, eq(billingCreditPeriods.workspaceId, workspaces.id))
    .where(lte(nextCreditReset, now));
  return rows.map((row) => row.id);
}

/** Adds a tier to the ones this workspace has paid for (first-month offers look at this). */
export function withPreviousTier(tiers: SubscriptionTier[], tier: SubscriptionTier): SubscriptionTier[] {
  return tiers.includes(tier) ? tiers : [...tiers, tier];
}

// ---- Provider records (Stripe) ------------------------------------------------------------------------

/** The workspace whose billing account is this provider customer (Stripe's `cus_…`), if any. */
export async function findWorkspaceIdByCustomer(db: Db, customerId: string): Promise<string | null> {
  const [row] = await db
    .select({ workspaceId: billingSubscriptions.workspaceId })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.providerCustomerId, customerId))
    .limit(1);
  return row?.workspaceId ?? null;
}

/** The invoice recorded for a provider's invoice (Stripe's `in_…`) in a workspace, if any. */
export async function findInvoiceByProviderId(
  db: Db,
  workspaceId: string,
  providerInvoiceId: string,
): Promise<InvoiceRow | null> {
  const [row] = await db
    .select()
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.workspaceId, workspaceId),
        eq(billingInvoices.providerInvoiceId, providerInvoiceId),
      ),
    );
  return row ?? null;
}

/** Ties an invoice to the provider's invoice and takes the amounts the provider really asked. */
export async function linkProviderInvoice(
  db: Db,
  invoiceId: string,
  link: { providerInvoiceId: string; subtotalCents: number; amountDueCents: number },
): Promise<void> {
  await db.update(billingInvoices).set(link).where(eq(billingInvoices.id, invoiceId));
}

/** Whether a provider's webhook event was already applied. */
export async function webhookEventSeen(db: Db, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: billingWebhookEvents.id })
    .from(billingWebhookEvents)
    .where(eq(billingWebhookEvents.id, eventId));
  return row !== undefined;
}

/**
 * Claims a webhook event for this transaction: true the first time, false when it was applied already
 * (providers deliver an event at least once; each is applied once).
 */
export async function claimWebhookEvent(db: Db, eventId: string, type: string): Promise<boolean> {
  const claimed = await db
    .insert(billingWebhookEvents)
    .values({ id: eventId, type })
    .onConflictDoNothing()
    .returning({ id: billingWebhookEvents.id });
  return claimed.length > 0;
}
