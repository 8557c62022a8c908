import type { BillingPeriod, Currency, PaidPlanId, SubscriptionTier } from '@parla/contracts';
import type { TestCard } from './test-cards';

/** A discount as the billing engine keeps it (a promo code, a discount code or the first-month offer). */
export interface ProviderDiscount {
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  /** Invoices it still applies to. */
  monthsLeft: number;
}

/** What a provider reads of a workspace's subscription (the billing module's row has these and more). */
export interface ProviderSubscription {
  currency: Currency;
  card: TestCard | null;
  downgradeTo: SubscriptionTier | null;
  downgradeToPeriod: BillingPeriod | null;
  providerCustomerId: string | null;
  providerSubscriptionId: string | null;
  providerScheduleId: string | null;
  connectAccountId: string | null;
}

/** The workspace and its subscription as the billing engine holds them, locked for the call. */
export interface ProviderState {
  readonly workspace: { id: string; name: string };
  readonly sub: ProviderSubscription;
}

/** An invoice of the billing engine, as a provider charges it. */
export interface ProviderInvoice {
  id: string;
  kind: 'subscription_create' | 'subscription_update' | 'subscription_cycle';
  tier: SubscriptionTier;
  billingPeriod: BillingPeriod;
  /** The provider's own invoice (Stripe's `in_…`), when the provider issued it. */
  providerInvoiceId: string | null;
}

/** A hosted session of the billing engine (checkout, card change, portal, payouts), as a provider hosts it. */
export interface ProviderSession {
  id: string;
  kind: 'checkout' | 'payment_method' | 'portal' | 'connect';
  tier: SubscriptionTier | null;
  billingPeriod: BillingPeriod | null;
  currency: Currency;
  discount: ProviderDiscount | null;
  returnUrl: string;
  successUrl: string;
}

/**
 * What a provider may write back, given by the billing module for the call (its transaction and state):
 * a provider keeps its own ids on the subscription and ties invoices to its own, and nothing else.
 */
export interface BillingRecords {
  /** Keeps the provider's customer or schedule id on the subscription (the state reads it back at once). */
  saveProviderIds(
    ids: Partial<Pick<ProviderSubscription, 'providerCustomerId' | 'providerScheduleId'>>,
  ): Promise<void>;
  /** Ties an invoice to the provider's invoice and takes the amounts the provider really asked. */
  linkProviderInvoice(
    invoiceId: string,
    link: { providerInvoiceId: string; subtotalCents: number; amountDueCents: number },
  ): Promise<void>;
}

/** What a provider call sees: the locked workspace state, the caller's email, and the records it may write. */
export interface BillingProviderContext {
  state: ProviderState;
  now: Date;
  email: string | null;
  records: BillingRecords;
}

export type ChargeResult = { ok: true } | { ok: false; message: string };

/**
 * Where the money moves (issue 5 "Payment providers"). The billing engine (modules/billing) decides every
 * rule of accounts §4 and writes the subscription; a provider hosts the pages where cards are entered and
 * charges them. The built-in test provider does both itself; Stripe does them with Checkout, the Billing
 * Portal, subscription updates and schedules, and tells us back with webhooks.
 */
export interface BillingProvider {
  readonly name: 'test' | 'stripe';
  /**
   * True when this server closes periods and charges renewals itself (the renewal job); false when the
   * provider does and reports back by webhook.
   */
  readonly runsRenewals: boolean;
  /** The page where a checkout, card change, portal or payouts session happens. */
  sessionUrl(ctx: BillingProviderContext, session: ProviderSession): Promise<string>;
  /**
   * Charges the card on file now (an upgrade's prorated invoice, a renewal, an open invoice). `promo` is a
   * promo code given with an upgrade, for a provider that applies discounts itself.
   */
  charge(
    ctx: BillingProviderContext,
    invoice: ProviderInvoice,
    promo?: ProviderDiscount | null,
  ): Promise<ChargeResult>;
  /** Tells the provider the plan changed now (upgrade). */
  changePlanNow(
    ctx: BillingProviderContext,
    target: { tier: PaidPlanId; period: BillingPeriod },
  ): Promise<void>;
  /** Schedules (target) or drops (null) a downgrade at the period end. */
  scheduleDowngrade(
    ctx: BillingProviderContext,
    target: { tier: SubscriptionTier; period: BillingPeriod } | null,
  ): Promise<void>;
  /** Cancels at the period end (true) or keeps renewing (false). */
  setCancelAtPeriodEnd(ctx: BillingProviderContext, cancel: boolean): Promise<void>;
  /** Puts a discount on the subscription's next invoice (a discount code of accounts §9). */
  applyDiscount(ctx: BillingProviderContext, discount: ProviderDiscount): Promise<void>;
  /** A zero-amount check of the card on file. */
  verifyCard(ctx: BillingProviderContext): Promise<ChargeResult>;
  /** Opens a payouts account; answers its id. */
  createConnectAccount(ctx: BillingProviderContext): Promise<string>;
}
