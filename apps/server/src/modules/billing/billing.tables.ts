import type { BillingPeriod, Currency, SubscriptionStatus, SubscriptionTier } from '@parla/contracts';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { CardOnFile } from '../../providers/billing/billing-provider';
import { users } from '../users/users.tables';
import { type WorkspaceRow, workspaces } from '../workspaces/workspaces.tables';

/** A card on file: what it shows, and how it behaves (the built-in provider's test cards; `succeeds` at Stripe). */
export type StoredCard = CardOnFile;

export interface StoredDiscount {
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  /** Invoices it still applies to. */
  monthsLeft: number;
}

/**
 * The subscription of a workspace (accounts §3 Subscription and the workspace's card-payment-provider
 * record). The tier stays on the workspace, where seats and every generation read it (billing sets it
 * through the workspaces module); a workspace with no row here is free with status free.
 */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    workspaceId: text('workspace_id')
      .primaryKey()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    status: text('status').$type<SubscriptionStatus>().notNull().default('free'),
    billingPeriod: text('billing_period').$type<BillingPeriod>(),
    currency: text('currency').$type<Currency>().notNull().default('usd'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** The schedule of a pending downgrade: metadata type=downgrade, downgrade_to (accounts §3). */
    downgradeTo: text('downgrade_to').$type<SubscriptionTier>(),
    downgradeToPeriod: text('downgrade_to_period').$type<BillingPeriod>(),
    previouslySubscribedTiers: jsonb('previously_subscribed_tiers')
      .$type<SubscriptionTier[]>()
      .notNull()
      .default([]),
    /** Which provider holds the card: the built-in test provider or Stripe. */
    provider: text('provider').$type<'test' | 'stripe'>(),
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    providerScheduleId: text('provider_schedule_id'),
    card: jsonb('card').$type<StoredCard>(),
    discount: jsonb('discount').$type<StoredDiscount>(),
    /** accounts §3 Workspace: marketplace and consolidated billing (recorded, not sold here). */
    gcpMarketplacePaymentDetails: jsonb('gcp_marketplace_payment_details').$type<Record<string, unknown>>(),
    consolidatedBilling: jsonb('consolidated_billing').$type<{ charge_workspace_id: string }>(),
    connectAccountId: text('connect_account_id'),
    /** Promo and discount codes this workspace has used: each works once per workspace. */
    redeemedCodes: jsonb('redeemed_codes').$type<string[]>().notNull().default([]),
    /** When an unpaid first invoice gives up (incomplete → free). */
    incompleteExpiresAt: timestamp('incomplete_expires_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The renewal job looks up the periods that have ended.
  (t) => [index('billing_subscriptions_period_end_idx').on(t.currentPeriodEnd)],
);

/**
 * When a workspace's credits next start afresh (accounts §3 next_character_count_reset_unix): monthly
 * from its creation or its plan's period start, whatever the billing period. No row: a month after the
 * workspace was made. The renewal job resets those due (`credits.period_started`).
 */
export const billingCreditPeriods = pgTable(
  'billing_credit_periods',
  {
    workspaceId: text('workspace_id')
      .primaryKey()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    nextResetAt: timestamp('next_reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('billing_credit_periods_next_idx').on(t.nextResetAt)],
);

export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;

export type InvoiceKind = 'subscription_create' | 'subscription_update' | 'subscription_cycle';

export const billingInvoices = pgTable(
  'billing_invoices',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<InvoiceKind>().notNull(),
    status: text('status').$type<'open' | 'paid' | 'void'>().notNull(),
    currency: text('currency').$type<Currency>().notNull(),
    tier: text('tier').$type<SubscriptionTier>().notNull(),
    billingPeriod: text('billing_period').$type<BillingPeriod>().notNull(),
    description: text('description').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    discountPercentOff: real('discount_percent_off'),
    discountAmountOff: integer('discount_amount_off'),
    amountDueCents: integer('amount_due_cents').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    paymentIntentStatus: text('payment_intent_status').$type<
      'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled'
    >(),
    attempts: integer('attempts').notNull().default(0),
    nextPaymentAttemptAt: timestamp('next_payment_attempt_at', { withTimezone: true }),
    providerInvoiceId: text('provider_invoice_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [index('billing_invoices_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type InvoiceRow = typeof billingInvoices.$inferSelect;

/** A hosted page of the built-in provider; the id is the secret in its URL. */
export const billingSessions = pgTable('billing_sessions', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  kind: text('kind').$type<'checkout' | 'payment_method' | 'portal' | 'connect'>().notNull(),
  status: text('status').$type<'open' | 'requires_action' | 'complete' | 'expired'>().notNull(),
  tier: text('tier').$type<SubscriptionTier>(),
  billingPeriod: text('billing_period').$type<BillingPeriod>(),
  currency: text('currency').$type<Currency>().notNull(),
  /** The price of one period, and what the first invoice asks after offers and promo codes. */
  priceCents: integer('price_cents'),
  amountDueCents: integer('amount_due_cents'),
  discount: jsonb('discount').$type<StoredDiscount & { description: string }>(),
  /** The card waiting for its second step (requires_authentication). */
  pendingCard: jsonb('pending_card').$type<StoredCard>(),
  invoiceId: text('invoice_id'),
  lastError: text('last_error'),
  returnUrl: text('return_url').notNull(),
  successUrl: text('success_url').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
export type SessionRow = typeof billingSessions.$inferSelect;

/** The answer of a mutating billing call, per workspace and idempotency key: the same key answers the same. */
export const billingIdempotency = pgTable(
  'billing_idempotency',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    requestHash: text('request_hash').notNull(),
    response: jsonb('response').$type<unknown>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] })],
);

/** Promo codes (accounts §3 Promo), made with the admin command line. */
export const promoCodes = pgTable('promo_codes', {
  code: text('code').primaryKey(),
  amountOff: integer('amount_off'),
  percentOff: real('percent_off'),
  durationInMonths: integer('duration_in_months').notNull().default(1),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Webhook events already applied (Stripe retries deliveries; each event counts once). */
export const billingWebhookEvents = pgTable('billing_webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A workspace's billing as one read: its row, its subscription (a default one when it never had a row) and its next credit reset. */
export interface BillingState {
  workspace: WorkspaceRow;
  sub: SubscriptionRow;
  /** When the workspace's credits next start afresh. */
  nextCreditResetAt: Date;
}
