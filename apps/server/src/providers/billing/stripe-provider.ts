import {
  type BillingPeriod,
  type Currency,
  isPaidPlanId,
  type PaidPlanId,
  planPriceCents,
  type SubscriptionTier,
  tierDisplayNames,
} from '@parla/contracts';
import Stripe from 'stripe';
import { AppError } from '../../platform/errors';
import type {
  BillingProvider,
  BillingProviderContext,
  ChargeResult,
  ProviderDiscount,
  ProviderInvoice,
  ProviderSession,
} from './billing-provider';
import { declined, idOf, isMissing, itemOf, unavailable } from './stripe-objects';
import { createStripeWebhooks, payStripeInvoice } from './stripe-webhooks';

/** The API client; `apiUrl` points it at another host (STRIPE_API_URL, a local server in tests). */
export function createStripeClient(secretKey: string, apiUrl?: string): Stripe {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, appInfo: { name: 'Parla' } };
  if (apiUrl) {
    const url = new URL(apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.host = url.hostname;
    config.port = url.port || (protocol === 'http' ? 80 : 443);
    config.protocol = protocol;
  }
  return new Stripe(secretKey, config);
}

/**
 * Payments with Stripe (issue 5 "Payment providers"). The engine (modules/billing) keeps deciding
 * every rule and writing the subscription; this provider hosts its pages with Checkout, the Billing Portal
 * and Connect onboarding, changes the Stripe subscription when the engine changes the plan, and Stripe
 * closes periods and charges renewals itself (`runsRenewals: false`), telling us by webhook: its events are
 * checked and read into the port's neutral ones in stripe-webhooks.ts (`webhooks`), which the billing module
 * applies.
 *
 * Prices live in Stripe under lookup keys `parla_<tier>_<period>_<currency>` (one product `parla_<tier>`
 * per plan), made on first use with the amounts of accounts §9 (planPriceCents); a price whose amount
 * changed in the code is replaced (the lookup key moves to the new one).
 */
export function createStripeProvider(options: {
  secretKey: string;
  webhookSecret?: string | undefined;
  apiUrl?: string | undefined;
  /**
   * Where Stripe's pages send the browser back: the billing engine's return paths are same-origin paths,
   * and a page on stripe.com needs them whole (PUBLIC_URL).
   */
  publicUrl: string;
  /** A Stripe client to use instead of making one (tests). */
  client?: Stripe;
}): BillingProvider {
  const stripe = options.client ?? createStripeClient(options.secretKey, options.apiUrl);
  const priceIds = new Map<string, string>();
  const back = (path: string) => new URL(path, `${options.publicUrl}/`).toString();

  async function ensureProduct(tier: PaidPlanId): Promise<string> {
    const id = `parla_${tier}`;
    try {
      await stripe.products.retrieve(id);
      return id;
    } catch (error) {
      if (!isMissing(error)) throw unavailable(error);
    }
    await stripe.products.create(
      { id, name: `Parla ${tierDisplayNames[tier]}`, metadata: { tier } },
      { idempotencyKey: `parla-product-${id}` },
    );
    return id;
  }

  /** The Stripe price of a plan, period and currency, made when missing. */
  async function priceId(tier: PaidPlanId, period: BillingPeriod, currency: Currency): Promise<string> {
    const lookupKey = `parla_${tier}_${period}_${currency}`;
    const cached = priceIds.get(lookupKey);
    if (cached) return cached;
    const amount = planPriceCents(tier, period, currency);
    const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
    const existing = found.data[0];
    let id = existing && existing.unit_amount === amount ? existing.id : null;
    if (!id) {
      const product = await ensureProduct(tier);
      const created = await stripe.prices.create({
        product,
        currency,
        unit_amount: amount,
        recurring: { interval: period === 'annual_period' ? 'year' : 'month' },
        lookup_key: lookupKey,
        transfer_lookup_key: true,
        metadata: { tier, billing_period: period },
      });
      id = created.id;
    }
    priceIds.set(lookupKey, id);
    return id;
  }

  /**
   * The Stripe coupon for a discount of the engine (a promo code, or the first-month offer): once for one
   * invoice, repeating for several months. Coupon ids name their terms, so each is made once.
   */
  async function couponId(discount: ProviderDiscount, currency: Currency): Promise<string> {
    const months = Math.max(1, discount.monthsLeft);
    const value =
      discount.percentOff != null ? `${discount.percentOff}pct` : `${discount.amountOff ?? 0}${currency}`;
    const id = `parla_${discount.code}_${value}_${months}m`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 200);
    try {
      await stripe.coupons.retrieve(id);
      return id;
    } catch (error) {
      if (!isMissing(error)) throw unavailable(error);
    }
    await stripe.coupons.create(
      {
        id,
        name: discount.code.slice(0, 40),
        ...(months > 1
          ? { duration: 'repeating' as const, duration_in_months: months }
          : { duration: 'once' as const }),
        ...(discount.percentOff != null
          ? { percent_off: discount.percentOff }
          : { amount_off: discount.amountOff ?? 0, currency }),
      },
      { idempotencyKey: `parla-coupon-${id}` },
    );
    return id;
  }

  /** The workspace's Stripe customer, made (and kept in providerCustomerId) on first need. */
  async function ensureCustomer(ctx: BillingProviderContext): Promise<string> {
    const known = ctx.state.sub.providerCustomerId;
    if (known) return known;
    const customer = await stripe.customers.create({
      ...(ctx.email ? { email: ctx.email } : {}),
      name: ctx.state.workspace.name,
      metadata: { workspace_id: ctx.state.workspace.id },
    });
    await ctx.records.saveProviderIds({ providerCustomerId: customer.id });
    return customer.id;
  }

  function requireSubscriptionId(ctx: BillingProviderContext): string {
    const id = ctx.state.sub.providerSubscriptionId;
    if (!id) {
      throw new AppError('subscription_conflict', 'There is no Stripe subscription on this workspace.');
    }
    return id;
  }

  /** Drops the subscription schedule of a pending downgrade (Stripe's own, or one left over). */
  async function releaseSchedule(ctx: BillingProviderContext): Promise<void> {
    let scheduleId = ctx.state.sub.providerScheduleId;
    const subscriptionId = ctx.state.sub.providerSubscriptionId;
    if (!scheduleId && subscriptionId) {
      scheduleId = idOf((await stripe.subscriptions.retrieve(subscriptionId)).schedule);
    }
    if (!scheduleId) return;
    try {
      await stripe.subscriptionSchedules.release(scheduleId);
    } catch (error) {
      // A schedule that already ended or was released holds nothing any more.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw unavailable(error);
    }
    if (ctx.state.sub.providerScheduleId) {
      await ctx.records.saveProviderIds({ providerScheduleId: null });
    }
  }

  async function scheduleDowngrade(
    ctx: BillingProviderContext,
    target: { tier: SubscriptionTier; period: BillingPeriod } | null,
  ): Promise<void> {
    if (!ctx.state.sub.providerSubscriptionId) return;
    if (!target) {
      await releaseSchedule(ctx);
      return;
    }
    const subscriptionId = ctx.state.sub.providerSubscriptionId;
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const item = itemOf(subscription);
    const scheduleId =
      idOf(subscription.schedule) ??
      (await stripe.subscriptionSchedules.create({ from_subscription: subscriptionId })).id;
    // The current period as it is, then the lower plan from its end. A downgrade to free has no price:
    // the schedule cancels the subscription at the period end instead (customer.subscription.deleted).
    const current = {
      items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
      start_date: item.current_period_start,
      end_date: item.current_period_end,
    };
    const phases: Stripe.SubscriptionScheduleUpdateParams.Phase[] = [current];
    if (isPaidPlanId(target.tier)) {
      phases.push({
        items: [{ price: await priceId(target.tier, target.period, ctx.state.sub.currency), quantity: 1 }],
        metadata: { tier: target.tier, billing_period: target.period },
        proration_behavior: 'none',
      });
    }
    await stripe.subscriptionSchedules.update(scheduleId, {
      phases,
      end_behavior: isPaidPlanId(target.tier) ? 'release' : 'cancel',
      proration_behavior: 'none',
      metadata: { type: 'downgrade', downgrade_to: target.tier, downgrade_to_period: target.period },
    });
    await ctx.records.saveProviderIds({ providerScheduleId: scheduleId });
  }

  /**
   * An upgrade (the engine's `subscription_update` invoice): the subscription moves to the new price now,
   * Stripe invoices the prorated difference at once and charges it, and refuses the change when the card
   * does (error_if_incomplete) — so the engine's "charge, then change the plan" is one Stripe call. The
   * period restarts now (billing_cycle_anchor), as the engine's proration has it (modules/billing/billing.pricing.ts).
   */
  async function upgrade(
    ctx: BillingProviderContext,
    invoice: ProviderInvoice,
    promo: ProviderDiscount | null,
  ): Promise<ChargeResult> {
    if (!isPaidPlanId(invoice.tier)) return { ok: false, message: 'This plan is not sold by card.' };
    const subscriptionId = requireSubscriptionId(ctx);
    const pendingDowngrade = ctx.state.sub.downgradeTo
      ? { tier: ctx.state.sub.downgradeTo, period: ctx.state.sub.downgradeToPeriod ?? invoice.billingPeriod }
      : null;
    // A subscription run by a schedule cannot be changed directly; the upgrade replaces the downgrade.
    await releaseSchedule(ctx);
    const item = itemOf(await stripe.subscriptions.retrieve(subscriptionId));
    const price = await priceId(invoice.tier, invoice.billingPeriod, ctx.state.sub.currency);
    // A promo code given with the upgrade goes on the subscription, so Stripe takes it off this invoice.
    const discounts = promo ? [{ coupon: await couponId(promo, ctx.state.sub.currency) }] : undefined;
    let updated: Stripe.Subscription;
    try {
      updated = await stripe.subscriptions.update(
        subscriptionId,
        {
          items: [{ id: item.id, price, quantity: 1 }],
          proration_behavior: 'always_invoice',
          payment_behavior: 'error_if_incomplete',
          billing_cycle_anchor: { type: 'now' },
          metadata: { tier: invoice.tier, billing_period: invoice.billingPeriod },
          ...(discounts ? { discounts } : {}),
          expand: ['latest_invoice'],
        },
        { idempotencyKey: `parla-upgrade-${invoice.id}` },
      );
    } catch (error) {
      // Refused: nothing changed, so the downgrade that was pending is scheduled again.
      if (pendingDowngrade) await scheduleDowngrade(ctx, pendingDowngrade);
      return declined(error);
    }
    const latest = updated.latest_invoice;
    if (latest && typeof latest !== 'string' && latest.id) {
      await ctx.records.linkProviderInvoice(invoice.id, {
        providerInvoiceId: latest.id,
        subtotalCents: latest.subtotal,
        amountDueCents: latest.amount_due,
      });
    }
    return { ok: true };
  }

  async function checkoutUrl(ctx: BillingProviderContext, session: ProviderSession): Promise<string> {
    const { tier, billingPeriod } = session;
    if (!tier || !billingPeriod || !isPaidPlanId(tier)) throw new Error('a checkout session without a plan');
    const customer = await ensureCustomer(ctx);
    const price = await priceId(tier, billingPeriod, session.currency);
    const discounts = session.discount
      ? [{ coupon: await couponId(session.discount, session.currency) }]
      : undefined;
    const workspaceId = ctx.state.workspace.id;
    const checkout = await stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer,
        client_reference_id: workspaceId,
        line_items: [{ price, quantity: 1 }],
        metadata: {
          workspace_id: workspaceId,
          tier,
          billing_period: billingPeriod,
          currency: session.currency,
          parla_session_id: session.id,
        },
        subscription_data: { metadata: { workspace_id: workspaceId, tier, billing_period: billingPeriod } },
        ...(discounts ? { discounts } : {}),
        success_url: back(session.successUrl),
        cancel_url: back(session.returnUrl),
      },
      { idempotencyKey: `parla-checkout-${session.id}` },
    );
    if (!checkout.url) throw new Error(`Stripe checkout session ${checkout.id} has no URL`);
    return checkout.url;
  }

  async function paymentMethodUrl(ctx: BillingProviderContext, session: ProviderSession): Promise<string> {
    const customer = await ensureCustomer(ctx);
    const workspaceId = ctx.state.workspace.id;
    const checkout = await stripe.checkout.sessions.create(
      {
        mode: 'setup',
        customer,
        currency: session.currency,
        client_reference_id: workspaceId,
        metadata: { workspace_id: workspaceId, parla_session_id: session.id },
        success_url: back(session.successUrl),
        cancel_url: back(session.returnUrl),
      },
      { idempotencyKey: `parla-setup-${session.id}` },
    );
    if (!checkout.url) throw new Error(`Stripe checkout session ${checkout.id} has no URL`);
    return checkout.url;
  }

  async function portalUrl(ctx: BillingProviderContext, session: ProviderSession): Promise<string> {
    const customer = ctx.state.sub.providerCustomerId;
    if (!customer) {
      throw new AppError('subscription_conflict', 'There is no Stripe billing account yet: subscribe first.');
    }
    const portal = await stripe.billingPortal.sessions.create({
      customer,
      return_url: back(session.returnUrl),
    });
    return portal.url;
  }

  /** Onboarding until the account is filled in, then the Express dashboard to manage it. */
  async function connectUrl(ctx: BillingProviderContext, session: ProviderSession): Promise<string> {
    const account = ctx.state.sub.connectAccountId;
    if (!account) throw new AppError('subscription_conflict', 'There is no payouts account yet.');
    const details = await stripe.accounts.retrieve(account);
    if (details.details_submitted) return (await stripe.accounts.createLoginLink(account)).url;
    const link = await stripe.accountLinks.create({
      account,
      type: 'account_onboarding',
      refresh_url: back(session.returnUrl),
      return_url: back(session.successUrl),
    });
    return link.url;
  }

  async function defaultPaymentMethod(ctx: BillingProviderContext): Promise<string | null> {
    const subscriptionId = ctx.state.sub.providerSubscriptionId;
    if (subscriptionId) {
      const fromSubscription = idOf(
        (await stripe.subscriptions.retrieve(subscriptionId)).default_payment_method,
      );
      if (fromSubscription) return fromSubscription;
    }
    const customerId = ctx.state.sub.providerCustomerId;
    if (!customerId) return null;
    const customer = await stripe.customers.retrieve(customerId);
    if (customer.deleted) return null;
    return idOf(customer.invoice_settings.default_payment_method);
  }

  return {
    name: 'stripe',
    runsRenewals: false,
    webhooks: createStripeWebhooks(stripe, options.webhookSecret),
    async sessionUrl(ctx, session) {
      try {
        switch (session.kind) {
          case 'checkout':
            return await checkoutUrl(ctx, session);
          case 'payment_method':
            return await paymentMethodUrl(ctx, session);
          case 'portal':
            return await portalUrl(ctx, session);
          case 'connect':
            return await connectUrl(ctx, session);
        }
      } catch (error) {
        throw unavailable(error);
      }
    },
    async charge(ctx, invoice, promo) {
      if (invoice.kind === 'subscription_update') return upgrade(ctx, invoice, promo ?? null);
      // Stripe charges renewals itself; an open invoice it issued can be paid again on demand.
      if (!invoice.providerInvoiceId) return { ok: false, message: 'This invoice is collected by Stripe.' };
      return payStripeInvoice(stripe, invoice.providerInvoiceId);
    },
    // An upgrade already moved the Stripe subscription in `charge` (see `upgrade`): nothing is left to do.
    async changePlanNow() {},
    async scheduleDowngrade(ctx, target) {
      try {
        await scheduleDowngrade(ctx, target);
      } catch (error) {
        throw unavailable(error);
      }
    },
    async setCancelAtPeriodEnd(ctx, cancel) {
      const subscriptionId = ctx.state.sub.providerSubscriptionId;
      if (!subscriptionId) return;
      try {
        // A schedule left from a downgrade would refuse the change: the cancellation replaces it.
        if (cancel) await releaseSchedule(ctx);
        await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
      } catch (error) {
        throw unavailable(error);
      }
    },
    /** The discount as a coupon on the Stripe subscription: Stripe takes it off the next invoice. */
    async applyDiscount(ctx, discount) {
      const subscriptionId = ctx.state.sub.providerSubscriptionId;
      if (!subscriptionId) return;
      try {
        const coupon = await couponId(discount, ctx.state.sub.currency);
        await stripe.subscriptions.update(subscriptionId, { discounts: [{ coupon }] });
      } catch (error) {
        throw unavailable(error);
      }
    },
    /** A zero-amount check: a SetupIntent confirmed off-session with the card Stripe charges. */
    async verifyCard(ctx) {
      const customer = ctx.state.sub.providerCustomerId;
      const method = await defaultPaymentMethod(ctx).catch((error: unknown) => {
        throw unavailable(error);
      });
      if (!customer || !method) return { ok: false, message: 'There is no card on file.' };
      try {
        const intent = await stripe.setupIntents.create({
          customer,
          payment_method: method,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          usage: 'off_session',
          confirm: true,
        });
        if (intent.status === 'succeeded') return { ok: true };
        return {
          ok: false,
          message: 'Your card asks for an extra authentication step: update it from the billing portal.',
        };
      } catch (error) {
        return declined(error);
      }
    },
    async createConnectAccount(ctx) {
      try {
        const account = await stripe.accounts.create({
          type: 'express',
          ...(ctx.email ? { email: ctx.email } : {}),
          metadata: { workspace_id: ctx.state.workspace.id },
        });
        return account.id;
      } catch (error) {
        throw unavailable(error);
      }
    },
  };
}
