import type { BillingPeriod, HostedSession, PaidPlanId, SubscriptionTier } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import type { EventPublisher } from '../../platform/events/event-bus';
import type { BillingState } from './billing.store';
import type { InvoiceRow, SessionRow, StoredDiscount } from './billing.tables';

/** What a provider call sees: the transaction, the locked workspace state and the caller's email. */
export interface ProviderContext {
  tx: Db;
  /** Publishes events in `tx`: they are delivered once it commits. */
  events: EventPublisher;
  state: BillingState;
  now: Date;
  email: string | null;
}

export type ChargeResult = { ok: true } | { ok: false; message: string };

/**
 * Where the money moves (issue 5 "Payment providers"). The billing engine (billing.service.ts) decides
 * every rule of accounts §4 and writes the subscription; a provider hosts the pages where cards are
 * entered and charges them. The built-in test provider does both itself; Stripe does them with
 * Checkout, the Billing Portal, subscription updates and schedules, and tells us back with webhooks.
 */
export interface BillingProvider {
  readonly name: 'test' | 'stripe';
  /**
   * True when this server closes periods and charges renewals itself (the renewal job); false when the
   * provider does and reports back by webhook.
   */
  readonly runsRenewals: boolean;
  /** The page where a checkout, card change, portal or payouts session happens. */
  sessionUrl(ctx: ProviderContext, session: SessionRow): Promise<string>;
  /**
   * Charges the card on file now (an upgrade's prorated invoice, a renewal, an open invoice). `promo` is a
   * promo code given with an upgrade, for a provider that applies discounts itself.
   */
  charge(ctx: ProviderContext, invoice: InvoiceRow, promo?: StoredDiscount | null): Promise<ChargeResult>;
  /** Tells the provider the plan changed now (upgrade). */
  changePlanNow(ctx: ProviderContext, target: { tier: PaidPlanId; period: BillingPeriod }): Promise<void>;
  /** Schedules (target) or drops (null) a downgrade at the period end. */
  scheduleDowngrade(
    ctx: ProviderContext,
    target: { tier: SubscriptionTier; period: BillingPeriod } | null,
  ): Promise<void>;
  /** Cancels at the period end (true) or keeps renewing (false). */
  setCancelAtPeriodEnd(ctx: ProviderContext, cancel: boolean): Promise<void>;
  /** Puts a discount on the subscription's next invoice (a discount code of accounts §9). */
  applyDiscount(ctx: ProviderContext, discount: StoredDiscount): Promise<void>;
  /** A zero-amount check of the card on file. */
  verifyCard(ctx: ProviderContext): Promise<ChargeResult>;
  /** Opens a payouts account; answers its id. */
  createConnectAccount(ctx: ProviderContext): Promise<string>;
}

/** The kinds of hosted session, as the web app's pages name them. */
export type SessionKind = HostedSession['kind'];
