import type {
  BillingPeriod,
  Currency,
  PaidPlanId,
  PaymentMethod,
  SubscriptionStatus,
  SubscriptionTier,
} from '@parla/contracts';

/**
 * How a card behaves on later charges. The built-in test provider's test cards each behave one way (accounts
 * issue: test cards like the common ones); a card held by a real processor (Stripe) is `succeeds`: the
 * processor decides each charge itself.
 */
export type CardBehaviour =
  | 'succeeds'
  | 'declined'
  | 'insufficient_funds'
  | 'requires_authentication'
  | 'charge_fails';

/** A card on file: what it shows, and how it behaves (see CardBehaviour). */
export interface CardOnFile extends PaymentMethod {
  behaviour: CardBehaviour;
}

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
  card: CardOnFile | null;
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
  /**
   * The card processor behind hosted pages this server serves itself (the built-in test provider's): the
   * billing module's hosted checkout and card pages read the card entered there with it. Absent when the
   * provider's own pages take the cards (Stripe Checkout).
   */
  readonly hostedCards?: HostedCardProcessor;
  /**
   * The inbound side: a provider that runs renewals and changes subscriptions on its side tells us by
   * webhook (Stripe). Absent when everything happens in this server (the test provider).
   */
  readonly webhooks?: BillingWebhooks;
}

/** What the hosted pages' card form sends (accounts §7 hosted pages). */
export interface EnteredCard {
  card_number: string;
  exp_month: number;
  exp_year: number;
}

export interface HostedCardProcessor {
  /** Reads a card entered on a hosted page: the card, or why it is refused at once (invalid, expired). */
  readCard(input: EnteredCard, now: Date): { card: CardOnFile } | { error: string };
  /**
   * Why the card refuses to be saved (a zero authorisation) or charged, in a card processor's words; null
   * when it goes through.
   */
  refusal(card: CardOnFile, purpose: 'charge' | 'save'): string | null;
}

// ---- The inbound side: webhooks ------------------------------------------------------------------------

/**
 * One webhook request whose signature the provider checked: which event it is (the billing module claims its
 * id once, so a redelivery changes nothing) and, on demand, the event in the port's words. `read` may call
 * the provider (to fetch what the event names, or to finish its side of it), so it is called only for an
 * event not applied yet.
 */
export interface ProviderWebhookDelivery {
  readonly eventId: string;
  readonly eventType: string;
  read(): Promise<ProviderBillingEvent>;
}

/**
 * Who an event is about, as the provider told it: our workspace id when the event carries it (metadata we
 * gave the provider), and the provider's customer, by which the billing module finds the workspace otherwise.
 */
export interface ProviderEventSubject {
  workspaceId: string | null;
  customerId: string | null;
}

/** A subscription as the provider holds it now (read afresh, never from a possibly stale event). */
export interface ProviderSubscriptionNow {
  id: string;
  /** Its status in our words; null once it ended (its deletion event ends the plan). */
  status: SubscriptionStatus | null;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** A schedule (a pending downgrade) still runs it. */
  scheduled: boolean;
  /** The card it charges, when the provider says. */
  card: CardOnFile | null;
}

/** An invoice the provider issued for a subscription, as its events tell it. */
export interface ProviderInvoiceFacts {
  /** The provider's invoice id (Stripe's `in_…`). */
  id: string;
  subscriptionId: string;
  /** Issued for a renewal (a new period), not for the first payment or a plan change. */
  renewal: boolean;
  /** The service period it pays for. */
  periodStart: Date;
  periodEnd: Date;
  subtotalCents: number;
  totalCents: number;
  amountDueCents: number;
  /** When the provider tries to collect it again; null when it will not. */
  nextAttemptAt: Date | null;
}

/** A paid checkout we opened (its metadata as we gave it, unchecked, and the amounts really charged). */
export interface ProviderCheckoutFacts {
  /** The provider's checkout id. */
  id: string;
  /** The billing module's session the checkout was opened for. */
  sessionId: string | null;
  tier: string | null;
  billingPeriod: string | null;
  currency: string | null;
  subtotalCents: number | null;
  totalCents: number | null;
}

/** An event about an invoice of a subscription. */
interface InvoiceEventFacts {
  subject: ProviderEventSubject;
  invoice: ProviderInvoiceFacts;
}

/** An event about a subscription. */
interface SubscriptionEventFacts {
  subject: ProviderEventSubject;
  subscriptionId: string;
}

interface EventIdentity {
  /** The provider's event id: the billing module applies each once. */
  eventId: string;
  eventType: string;
}

/**
 * What a provider's webhook event means for billing, in no provider's words. The provider reads its own
 * events into these; the billing module applies them (its rules, under the workspace lock, once per event).
 */
export type ProviderBillingEvent = EventIdentity &
  (
    | {
        /** A subscription checkout was paid: the plan starts. */
        kind: 'subscription_checkout_paid';
        subject: ProviderEventSubject;
        customerId: string;
        checkout: ProviderCheckoutFacts;
        /** The subscription the checkout made, as the provider holds it. */
        subscription: ProviderSubscriptionNow;
      }
    | {
        /**
         * A card was saved in a setup checkout; the provider already made it its customer's default (the
         * billing module makes it the subscription's with `useCardForSubscription`).
         */
        kind: 'card_saved';
        subject: ProviderEventSubject;
        /** The provider's id of the saved card (Stripe's payment method). */
        providerCardId: string;
        card: CardOnFile | null;
        sessionId: string | null;
      }
    /** An invoice was paid (a renewal, or an invoice recorded open). */
    | ({ kind: 'invoice_paid' } & InvoiceEventFacts)
    /** A renewal's invoice could not be collected (the provider may try again). */
    | ({ kind: 'invoice_payment_failed' } & InvoiceEventFacts)
    /** The provider voided an invoice or gave up collecting it. */
    | ({ kind: 'invoice_written_off' } & InvoiceEventFacts)
    /** The subscription changed at the provider (read it afresh with `readSubscription`). */
    | ({ kind: 'subscription_updated' } & SubscriptionEventFacts)
    /** The subscription ended at the provider. */
    | ({ kind: 'subscription_deleted' } & SubscriptionEventFacts)
    | {
        /** Nothing billing uses (another event type, a checkout not paid yet, an invoice of no subscription). */
        kind: 'ignored';
      }
  );

/**
 * A provider's webhook (Stripe's `POST /v1/billing/stripe/webhook`): it checks and reads its events, and
 * answers the few calls the billing module makes while applying them.
 */
export interface BillingWebhooks {
  /** The request header that carries the provider's signature of the body (lower case). */
  readonly signatureHeader: string;
  /** Why every event will be refused (no secret configured), for the operator's log; null when ready. */
  readonly notReady: string | null;
  /**
   * Checks the signature on the exact bytes received: AppError `service_unavailable` (503) when no secret is
   * configured, `bad_request` (400) with no or a wrong signature; nothing is read before.
   */
  receive(rawBody: Buffer, signature: string | string[] | undefined): Promise<ProviderWebhookDelivery>;
  /** The subscription as the provider holds it now. */
  readSubscription(subscriptionId: string): Promise<ProviderSubscriptionNow>;
  /** Ends a subscription at once (one a second checkout made for a workspace already on a plan). */
  cancelSubscriptionNow(subscriptionId: string): Promise<void>;
  /** Makes a saved card (`providerCardId` of a `card_saved` event) the one a subscription charges. */
  useCardForSubscription(subscriptionId: string, providerCardId: string): Promise<void>;
  /** Collects an open invoice the provider issued, with the card on file: a decline is a result. */
  payInvoice(providerInvoiceId: string): Promise<ChargeResult>;
}
