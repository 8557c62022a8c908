import { planPriceCents } from '@parla/contracts';
import { and, eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../platform/json-depth';
import { signUpWithApiKey } from '../../test/factories';
import { type FakeStripe, startFakeStripe } from '../../test/fake-stripe';
import { type CallBody, sessionCalls } from '../../test/session-calls';
import { createTestApp, type TestApp } from '../../test/test-app';
import { creditLedger } from '../credits/credits.tables';
import { addPeriod } from './billing.pricing';
import { billingInvoices, billingWebhookEvents } from './billing.tables';
import { createPromoCode } from './promo-codes.service';

const WEBHOOK_SECRET = 'whsec_test';
let fake: FakeStripe;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp({
    env: { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const { call, subscription, overview } = sessionCalls(() => t.app);

let eventCounter = 0;
/** An event as Stripe sends it: the JSON body and its Stripe-Signature header, made by the library. */
function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${++eventCounter}_${Date.now()}`,
) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  return {
    id,
    payload,
    signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
  };
}

async function deliver(event: { payload: string; signature: string }) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/billing/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    payload: event.payload,
  });
  return { status: res.statusCode, body: res.json() as CallBody };
}

async function counts(workspaceId: string) {
  const [invoices] = await t.deps.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(billingInvoices)
    .where(eq(billingInvoices.workspaceId, workspaceId));
  const [resets] = await t.deps.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(creditLedger)
    .where(and(eq(creditLedger.workspaceId, workspaceId), eq(creditLedger.kind, 'reset')));
  return { invoices: invoices?.n ?? 0, resets: resets?.n ?? 0 };
}

/** A renewal invoice of a subscription, shaped like Stripe's. */
function renewalInvoice(input: {
  id: string;
  subscription: string;
  customer: string;
  workspaceId: string;
  start: Date;
  end: Date;
  amount: number;
}) {
  return {
    id: input.id,
    object: 'invoice',
    billing_reason: 'subscription_cycle',
    customer: input.customer,
    currency: 'usd',
    subtotal: input.amount,
    total: input.amount,
    amount_due: input.amount,
    amount_paid: 0,
    next_payment_attempt: Math.floor(input.end.getTime() / 1000) - 1000,
    period_start: Math.floor(input.start.getTime() / 1000),
    period_end: Math.floor(input.start.getTime() / 1000),
    parent: {
      type: 'subscription_details',
      subscription_details: {
        subscription: input.subscription,
        metadata: { workspace_id: input.workspaceId },
      },
    },
    lines: {
      object: 'list',
      data: [
        {
          id: `il_${input.id}`,
          object: 'line_item',
          period: {
            start: Math.floor(input.start.getTime() / 1000),
            end: Math.floor(input.end.getTime() / 1000),
          },
        },
      ],
    },
  };
}

describe('the Stripe provider', () => {
  it('checkout, webhooks (idempotent), renewal, past due, downgrade schedule, upgrade, cancel and the end', async () => {
    const account = await signUpWithApiKey(t.app);
    expect((await overview(account)).provider).toBe('stripe');

    // Checkout: a Stripe Checkout Session in subscription mode with the plan's price and our metadata.
    const created = await call(account, '/v1/billing/create-checkout-session', {
      subscription_type: 'creator',
      billing_period: 'monthly_period',
      currency: 'usd',
      no_default_promocode: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const price = fake.priceByLookupKey('parla_creator_monthly_period_usd');
    expect(price).toMatchObject({
      unit_amount: planPriceCents('creator', 'monthly_period', 'usd'),
      currency: 'usd',
    });
    expect(fake.callsTo('POST', '/v1/products').at(-1)?.params).toMatchObject({ id: 'parla_creator' });
    const customer = fake.callsTo('POST', '/v1/customers').at(-1);
    expect(customer?.params).toMatchObject({
      email: account.email,
      'metadata[workspace_id]': account.workspaceId,
    });
    const checkout = fake.callsTo('POST', '/v1/checkout/sessions').at(-1);
    expect(checkout?.params).toMatchObject({
      mode: 'subscription',
      customer: expect.stringMatching(/^cus_/),
      client_reference_id: account.workspaceId,
      'line_items[0][price]': price?.id,
      'line_items[0][quantity]': '1',
      'metadata[workspace_id]': account.workspaceId,
      'metadata[tier]': 'creator',
      'metadata[billing_period]': 'monthly_period',
      'subscription_data[metadata][workspace_id]': account.workspaceId,
      // Stripe's pages are elsewhere: the way back is whole, on PUBLIC_URL.
      success_url: `${t.deps.config.publicUrl}/app/subscription?checkout=success`,
      cancel_url: `${t.deps.config.publicUrl}/pricing`,
    });
    expect(checkout?.params['discounts[0][coupon]']).toBeUndefined();
    const customerId = String(checkout?.params.customer);
    // Still free until Stripe says the checkout was paid.
    expect(await subscription(account)).toMatchObject({ tier: 'free', status: 'free' });

    // Stripe made the subscription; checkout.session.completed starts the plan.
    const start = new Date(Math.floor(Date.now() / 1000) * 1000);
    const end = addPeriod(start, 'monthly_period');
    const sub = fake.addSubscription({
      customer: customerId,
      price: String(price?.id),
      start,
      end,
      metadata: { workspace_id: account.workspaceId },
    });
    const completedSession = {
      id: 'cs_test_done',
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'paid',
      client_reference_id: account.workspaceId,
      customer: customerId,
      subscription: sub.id,
      amount_subtotal: 2200,
      amount_total: 2200,
      metadata: {
        workspace_id: account.workspaceId,
        tier: 'creator',
        billing_period: 'monthly_period',
        currency: 'usd',
        parla_session_id: checkout?.params['metadata[parla_session_id]'],
      },
    };
    const completed = stripeEvent('checkout.session.completed', completedSession);
    expect(await deliver(completed)).toEqual({ status: 200, body: { received: true } });
    // A second checkout paid meanwhile is cancelled at Stripe, not adopted: the plan on file stays.
    const extra = fake.addSubscription({
      customer: customerId,
      price: String(price?.id),
      start,
      end,
      metadata: { workspace_id: account.workspaceId },
    });
    const second = stripeEvent('checkout.session.completed', {
      ...completedSession,
      id: 'cs_test_second',
      subscription: extra.id,
    });
    expect((await deliver(second)).status).toBe(200);
    expect(fake.callsTo('DELETE', `/v1/subscriptions/${extra.id}`)).toHaveLength(1);
    const before = await counts(account.workspaceId);
    expect(before.invoices).toBe(1);
    const active = await subscription(account);
    expect(active).toMatchObject({
      tier: 'creator',
      status: 'active',
      billing_period: 'monthly_period',
      character_count: 0,
      has_open_invoices: false,
    });
    // A new credit period from the activation (a moment after `start`).
    const firstReset = Number(active.next_character_count_reset_unix);
    expect(Math.abs(firstReset - Math.floor(addPeriod(start, 'month').getTime() / 1000))).toBeLessThanOrEqual(
      2,
    );
    expect(await overview(account)).toMatchObject({
      payment_provider: 'card',
      card_payment_provider: {
        current_period_end: Math.floor(end.getTime() / 1000),
        cancel_at_period_end: false,
      },
      payment_method: { brand: 'visa', last4: '4242' },
      invoices: [{ amount_due_cents: 2200, status: 'paid' }],
    });

    // The same event again (Stripe retries): 200, and nothing is applied twice.
    expect(await deliver(completed)).toEqual({ status: 200, body: { received: true } });
    expect(await deliver({ ...completed, signature: stripeEventSignature(completed.payload) })).toMatchObject(
      {
        status: 200,
      },
    );
    expect(await counts(account.workspaceId)).toEqual(before);
    const stored = await t.deps.database.db
      .select()
      .from(billingWebhookEvents)
      .where(eq(billingWebhookEvents.id, completed.id));
    expect(stored).toHaveLength(1);

    // A renewal Stripe could not charge: past due, with the open invoice shown.
    const nextEnd = addPeriod(end, 'monthly_period');
    const renewal = renewalInvoice({
      id: 'in_renewal_1',
      subscription: sub.id,
      customer: customerId,
      workspaceId: account.workspaceId,
      start: end,
      end: nextEnd,
      amount: 2200,
    });
    expect((await deliver(stripeEvent('invoice.payment_failed', renewal))).status).toBe(200);
    expect(await subscription(account)).toMatchObject({
      tier: 'creator',
      status: 'past_due',
      has_open_invoices: true,
      open_invoices: [{ amount_due_cents: 2200, status: 'open' }],
    });
    expect((await call(account, '/v1/user/messages', undefined, 'GET')).body).toMatchObject({
      unread_count: 1,
      messages: [{ severity: 'error', title: 'Your subscription payment failed' }],
    });

    // Paid on a retry: active again, the new period, and the credits start over.
    expect((await deliver(stripeEvent('invoice.paid', { ...renewal, amount_paid: 2200 }))).status).toBe(200);
    expect(await subscription(account)).toMatchObject({
      tier: 'creator',
      status: 'active',
      has_open_invoices: false,
      next_character_count_reset_unix: Math.floor(addPeriod(end, 'month').getTime() / 1000),
    });
    expect((await overview(account)).card_payment_provider).toMatchObject({
      current_period_end: Math.floor(nextEnd.getTime() / 1000),
    });
    expect(await counts(account.workspaceId)).toEqual({ invoices: 2, resets: before.resets + 1 });

    // An invoice Stripe writes off (voided here) is no longer owed: past due → active again.
    const writtenOff = renewalInvoice({
      id: 'in_renewal_written_off',
      subscription: sub.id,
      customer: customerId,
      workspaceId: account.workspaceId,
      start: end,
      end: nextEnd,
      amount: 2200,
    });
    expect((await deliver(stripeEvent('invoice.payment_failed', writtenOff))).status).toBe(200);
    expect((await subscription(account)).status).toBe('past_due');
    expect((await deliver(stripeEvent('invoice.voided', writtenOff))).status).toBe(200);
    expect(await subscription(account)).toMatchObject({ status: 'active', has_open_invoices: false });
    const [voided] = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.providerInvoiceId, 'in_renewal_written_off'));
    expect(voided?.status).toBe('void');

    // A downgrade is a subscription schedule: this period as it is, then the lower price.
    const down = await call(account, '/v1/billing/change-subscription', {
      subscription_type: 'starter',
      billing_period: 'monthly_period',
      idempotency_key: 'stripe-downgrade-1',
    });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect(fake.callsTo('POST', '/v1/subscription_schedules').at(-1)?.params).toMatchObject({
      from_subscription: sub.id,
    });
    const scheduleId = String(fake.subscription(sub.id)?.schedule);
    const scheduled = fake.callsTo('POST', `/v1/subscription_schedules/${scheduleId}`).at(-1);
    expect(scheduled?.params).toMatchObject({
      'metadata[type]': 'downgrade',
      'metadata[downgrade_to]': 'starter',
      'phases[0][items][0][price]': price?.id,
      'phases[0][end_date]': String(Math.floor(end.getTime() / 1000)),
      'phases[1][items][0][price]': fake.priceByLookupKey('parla_starter_monthly_period_usd')?.id,
      end_behavior: 'release',
    });
    expect((await overview(account)).card_payment_provider).toMatchObject({
      schedule: { metadata: { type: 'downgrade', downgrade_to: 'starter' } },
    });
    // Dropping it releases the schedule.
    expect((await call(account, '/v1/billing/cancel-downgrade', {})).status).toBe(200);
    expect(fake.callsTo('POST', `/v1/subscription_schedules/${scheduleId}/release`)).toHaveLength(1);
    expect((await subscription(account)).pending_change).toBeNull();

    // An upgrade moves the Stripe subscription now, prorated and charged at once; a decline changes nothing.
    fake.options.declineNextSubscriptionUpdate = true;
    const refused = await call(account, '/v1/billing/change-subscription', {
      subscription_type: 'pro',
      billing_period: 'monthly_period',
      idempotency_key: 'stripe-upgrade-declined',
    });
    expect(refused.status).toBe(402);
    expect(refused.body.detail).toMatchObject({
      status: 'card_declined',
      message: expect.stringContaining('declined'),
    });
    expect(await subscription(account)).toMatchObject({ tier: 'creator', status: 'active' });
    const up = await call(account, '/v1/billing/change-subscription', {
      subscription_type: 'pro',
      billing_period: 'monthly_period',
      idempotency_key: 'stripe-upgrade-1',
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(fake.callsTo('POST', `/v1/subscriptions/${sub.id}`).at(-1)?.params).toMatchObject({
      'items[0][id]': `si_${sub.id}`,
      'items[0][price]': fake.priceByLookupKey('parla_pro_monthly_period_usd')?.id,
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    expect(await subscription(account)).toMatchObject({ tier: 'pro', status: 'active' });

    // A downgrade takes effect when Stripe's schedule renews on the lower price (invoice.paid).
    expect(
      (
        await call(account, '/v1/billing/change-subscription', {
          subscription_type: 'creator',
          billing_period: 'monthly_period',
          idempotency_key: 'stripe-downgrade-2',
        })
      ).status,
    ).toBe(200);
    const switchStart = addPeriod(new Date(), 'monthly_period');
    const switched = renewalInvoice({
      id: 'in_renewal_2',
      subscription: sub.id,
      customer: customerId,
      workspaceId: account.workspaceId,
      start: switchStart,
      end: addPeriod(switchStart, 'monthly_period'),
      amount: 2200,
    });
    expect((await deliver(stripeEvent('invoice.paid', { ...switched, amount_paid: 2200 }))).status).toBe(200);
    expect(await subscription(account)).toMatchObject({
      tier: 'creator',
      status: 'active',
      pending_change: null,
    });

    // Back to Pro for the rest (the schedule of the applied downgrade is released first).
    // With a promo code: it goes to Stripe as a coupon on the subscription update.
    const promocode = `STRIPEUP${Date.now()}`;
    await createPromoCode(t.deps.database.db, { code: promocode, percentOff: 25, durationInMonths: 1 });
    const upAgain = await call(account, '/v1/billing/change-subscription', {
      subscription_type: 'pro',
      billing_period: 'monthly_period',
      idempotency_key: 'stripe-upgrade-2',
      promocode,
    });
    expect(upAgain.status, JSON.stringify(upAgain.body)).toBe(200);
    expect(fake.callsTo('POST', `/v1/subscriptions/${sub.id}`).at(-1)?.params).toMatchObject({
      'discounts[0][coupon]': expect.stringContaining(promocode),
    });
    expect(await subscription(account)).toMatchObject({ tier: 'pro' });

    // A discount code becomes a one-invoice coupon on the Stripe subscription.
    expect(
      (await call(account, '/v1/billing/apply-discount', { discount_code: 'special-offer-30' })).status,
    ).toBe(200);
    expect(fake.callsTo('POST', '/v1/coupons').at(-1)?.params).toMatchObject({
      percent_off: '30',
      duration: 'once',
    });
    expect(fake.callsTo('POST', `/v1/subscriptions/${sub.id}`).at(-1)?.params).toMatchObject({
      'discounts[0][coupon]': expect.stringContaining('special-offer-30'),
    });

    // Cancel at the period end, then keep it.
    expect((await call(account, '/v1/billing/cancel-subscription', {})).status).toBe(200);
    expect(fake.callsTo('POST', `/v1/subscriptions/${sub.id}`).at(-1)?.params).toEqual({
      cancel_at_period_end: 'true',
    });
    expect((await subscription(account)).pending_change).toMatchObject({ kind: 'cancellation' });
    expect((await call(account, '/v1/billing/renew-subscription', {})).status).toBe(200);
    expect(fake.callsTo('POST', `/v1/subscriptions/${sub.id}`).at(-1)?.params).toEqual({
      cancel_at_period_end: 'false',
    });

    // A cancellation made in Stripe's portal comes back as customer.subscription.updated.
    const held = fake.subscription(sub.id);
    if (held) held.cancelAtPeriodEnd = true;
    expect(
      (
        await deliver(
          stripeEvent('customer.subscription.updated', {
            id: sub.id,
            object: 'subscription',
            customer: customerId,
            metadata: { workspace_id: account.workspaceId },
          }),
        )
      ).status,
    ).toBe(200);
    expect((await subscription(account)).pending_change).toMatchObject({ kind: 'cancellation' });

    // The billing portal is Stripe's.
    const portal = await call(account, '/v1/billing/create-portal-session', {});
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(fake.callsTo('POST', '/v1/billing_portal/sessions').at(-1)?.params).toMatchObject({
      customer: customerId,
    });

    // The subscription ends at Stripe: back to free.
    const deleted = stripeEvent('customer.subscription.deleted', {
      id: sub.id,
      object: 'subscription',
      customer: customerId,
      status: 'canceled',
      metadata: { workspace_id: account.workspaceId },
    });
    expect((await deliver(deleted)).status).toBe(200);
    expect(await subscription(account)).toMatchObject({ tier: 'free', status: 'free', pending_change: null });
  });

  it('answers 400 in the API error shape to a bad or missing signature, and applies nothing', async () => {
    const account = await signUpWithApiKey(t.app);
    const event = stripeEvent('customer.subscription.deleted', {
      id: 'sub_nope',
      object: 'subscription',
      customer: 'cus_nope',
      metadata: { workspace_id: account.workspaceId },
    });
    const forged = await deliver({
      payload: event.payload,
      signature: Stripe.webhooks.generateTestHeaderString({ payload: event.payload, secret: 'whsec_other' }),
    });
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ detail: { status: 'bad_request', message: expect.any(String) } });
    const tampered = await deliver({
      payload: event.payload.replace('sub_nope', 'sub_else'),
      signature: event.signature,
    });
    expect(tampered.status).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: event.payload,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toMatchObject({ detail: { status: 'bad_request' } });
    const stored = await t.deps.database.db
      .select()
      .from(billingWebhookEvents)
      .where(eq(billingWebhookEvents.id, event.id));
    expect(stored).toHaveLength(0);
  });

  it('refuses an event nested deeper than JSON_MAX_DEPTH before anything reads it, signed or not', async () => {
    const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
    const event = stripeEvent('customer.subscription.deleted', { id: 'sub_deep', object: 'subscription' });
    const payload = event.payload.replace('"object":"subscription"', `"object":"subscription","x":${deep}`);
    const signed = await deliver({
      payload,
      signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    });
    expect(signed).toEqual({
      status: 400,
      body: {
        detail: { status: 'malformed_request', message: expect.stringContaining(`${JSON_MAX_DEPTH} levels`) },
      },
    });
    const stored = await t.deps.database.db
      .select()
      .from(billingWebhookEvents)
      .where(eq(billingWebhookEvents.id, event.id));
    expect(stored).toHaveLength(0);
    // The route still takes Stripe's real (shallow) events.
    expect((await deliver(stripeEvent('customer.created', { id: 'cus_x', object: 'customer' }))).status).toBe(
      200,
    );
  });

  it("refuses a card sent to this server's own hosted page for a Stripe checkout: nothing starts", async () => {
    const account = await signUpWithApiKey(t.app);
    const created = await call(account, '/v1/billing/create-checkout-session', {
      subscription_type: 'creator',
      billing_period: 'monthly_period',
      currency: 'usd',
      no_default_promocode: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // The checkout's own session, as Stripe holds it in the metadata: Stripe's page takes the card, not ours.
    const sessionId = fake.callsTo('POST', '/v1/checkout/sessions').at(-1)?.params[
      'metadata[parla_session_id]'
    ];
    expect(sessionId).toMatch(/^cs_/);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/sessions/${sessionId}/card`,
      payload: {
        card_number: '4242 4242 4242 4242',
        exp_month: 12,
        exp_year: 2030,
        cvc: '123',
        cardholder_name: 'Ada Lovelace',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: { status: 'bad_request', message: expect.stringContaining('provider') },
    });
    expect(await subscription(account)).toMatchObject({ tier: 'free', status: 'free' });
    expect(await counts(account.workspaceId)).toMatchObject({ invoices: 0 });
  });

  it('maps the first-month offer to a one-time coupon, and a new card is a setup checkout', async () => {
    const account = await signUpWithApiKey(t.app);
    const created = await call(account, '/v1/billing/create-checkout-session', {
      subscription_type: 'creator',
      billing_period: 'monthly_period',
      currency: 'usd',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const checkout = fake.callsTo('POST', '/v1/checkout/sessions').at(-1);
    const couponId = checkout?.params['discounts[0][coupon]'];
    expect(couponId).toBeDefined();
    expect(fake.coupon(String(couponId))).toMatchObject({
      duration: 'once',
      amount_off: String(planPriceCents('creator', 'monthly_period', 'usd') - 1100),
      currency: 'usd',
    });

    // Start the plan, then change the card in a setup-mode checkout.
    const customerId = String(checkout?.params.customer);
    const price = fake.priceByLookupKey('parla_creator_monthly_period_usd');
    const start = new Date();
    const sub = fake.addSubscription({
      customer: customerId,
      price: String(price?.id),
      start,
      end: addPeriod(start, 'monthly_period'),
    });
    const completed = stripeEvent('checkout.session.completed', {
      id: 'cs_test_offer',
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'paid',
      client_reference_id: account.workspaceId,
      customer: customerId,
      subscription: sub.id,
      amount_subtotal: 2200,
      amount_total: 1100,
      metadata: { ...Object.fromEntries(metadataOf(checkout?.params ?? {})) },
    });
    expect((await deliver(completed)).status).toBe(200);
    expect(await subscription(account)).toMatchObject({ tier: 'creator', status: 'active' });
    expect((await overview(account)).invoices).toMatchObject([
      { amount_due_cents: 1100, subtotal_cents: 2200 },
    ]);

    const setup = await call(account, '/v1/billing/create-update-payment-methods-session', {});
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const setupCall = fake.callsTo('POST', '/v1/checkout/sessions').at(-1);
    expect(setupCall?.params).toMatchObject({ mode: 'setup', customer: customerId, currency: 'usd' });
    const saved = stripeEvent('checkout.session.completed', {
      id: 'cs_test_setup',
      object: 'checkout.session',
      mode: 'setup',
      client_reference_id: account.workspaceId,
      customer: customerId,
      setup_intent: 'seti_card',
      metadata: { ...Object.fromEntries(metadataOf(setupCall?.params ?? {})) },
    });
    expect((await deliver(saved)).status).toBe(200);
    expect(fake.callsTo('POST', `/v1/customers/${customerId}`).at(-1)?.params).toMatchObject({
      'invoice_settings[default_payment_method]': 'pm_new',
    });
    expect(fake.callsTo('POST', `/v1/subscriptions/${sub.id}`).at(-1)?.params).toMatchObject({
      default_payment_method: 'pm_new',
    });
    expect((await overview(account)).payment_method).toMatchObject({ last4: '5556' });

    // verify-card confirms a SetupIntent with the card Stripe charges.
    expect((await call(account, '/v1/billing/verify-card', {})).body).toEqual({
      status: 'ok',
      verified: true,
    });
    expect(fake.callsTo('POST', '/v1/setup_intents').at(-1)?.params).toMatchObject({
      customer: customerId,
      payment_method: 'pm_new',
      confirm: 'true',
    });

    // Payouts: an Express account, then Stripe's onboarding link back to the page that asked.
    const connect = await call(account, '/v1/billing/create-connect-account', {
      relative_redirect_path: '/app/payouts',
    });
    expect(connect.status, JSON.stringify(connect.body)).toBe(200);
    expect(fake.callsTo('POST', '/v1/accounts').at(-1)?.params).toMatchObject({
      type: 'express',
      'metadata[workspace_id]': account.workspaceId,
    });
    expect(connect.body.url).toMatch(/^https:\/\/connect\.stripe\.test\/setup\/e\/acct_/);
    expect(fake.callsTo('POST', '/v1/account_links').at(-1)?.params).toMatchObject({
      type: 'account_onboarding',
      return_url: expect.stringMatching(new RegExp(`^${t.deps.config.publicUrl}/app/payouts`)),
    });
  });
});

/** The `metadata[…]` entries of a recorded call, as a metadata object. */
function metadataOf(params: Record<string, string>): [string, string][] {
  return Object.entries(params)
    .filter(([key]) => key.startsWith('metadata['))
    .map(([key, value]) => [key.slice('metadata['.length, -1), value]);
}

/** A fresh signature of the same payload (a redelivery is signed again with a new timestamp). */
function stripeEventSignature(payload: string): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
    timestamp: Math.floor(Date.now() / 1000) + 1,
  });
}
