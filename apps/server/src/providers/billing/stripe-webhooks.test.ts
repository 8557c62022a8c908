import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { type FakeStripe, startFakeStripe } from '../../test/fake-stripe';
import type { BillingWebhooks, ProviderBillingEvent } from './billing-provider';
import { declined, statusOf } from './stripe-objects';
import { createStripeClient } from './stripe-provider';
import { createStripeWebhooks } from './stripe-webhooks';

/**
 * The Stripe adapter's inbound side: Stripe's events (JSON as Stripe sends it, signed by the library) in,
 * the port's provider-neutral events out. What an event makes the adapter fetch or do at Stripe is
 * answered by the local fake (127.0.0.1), which records every call.
 */

const SECRET = 'whsec_unit';
let fake: FakeStripe;
let stripe: Stripe;
let webhooks: BillingWebhooks;
beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = createStripeClient('sk_test_unit', fake.url);
  webhooks = createStripeWebhooks(stripe, SECRET);
});
afterAll(async () => {
  await fake?.close();
});

let counter = 0;
function signed(type: string, object: Record<string, unknown>, secret = SECRET) {
  const id = `evt_unit_${++counter}`;
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    created: 1_780_000_000,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  return {
    id,
    body: Buffer.from(payload),
    signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }),
  };
}

/** The neutral event a signed Stripe event reads as, and the Stripe calls reading it made. */
async function read(type: string, object: Record<string, unknown>) {
  const event = signed(type, object);
  const before = fake.calls.length;
  const delivery = await webhooks.receive(event.body, event.signature);
  expect(delivery).toMatchObject({ eventId: event.id, eventType: type });
  // Receiving only checks the signature: nothing is fetched for an event that may be a redelivery.
  expect(fake.calls.length).toBe(before);
  const neutral = await delivery.read();
  return { event: neutral, calls: fake.calls.slice(before) };
}

const unix = (iso: string) => Date.parse(iso) / 1000;

function renewalInvoice(overrides: Record<string, unknown> = {}) {
  return {
    id: 'in_unit_1',
    object: 'invoice',
    billing_reason: 'subscription_cycle',
    customer: 'cus_unit',
    currency: 'usd',
    subtotal: 2200,
    total: 1980,
    amount_due: 1980,
    next_payment_attempt: unix('2026-07-04T00:00:00Z'),
    period_start: unix('2026-06-01T00:00:00Z'),
    period_end: unix('2026-06-01T00:00:00Z'),
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: 'sub_unit', metadata: { workspace_id: 'ws_unit' } },
    },
    lines: {
      object: 'list',
      data: [
        // A proration line of the past period and the renewal's line: the invoice pays for the latest.
        {
          id: 'il_a',
          object: 'line_item',
          period: { start: unix('2026-05-20T00:00:00Z'), end: unix('2026-06-01T00:00:00Z') },
        },
        {
          id: 'il_b',
          object: 'line_item',
          period: { start: unix('2026-06-01T00:00:00Z'), end: unix('2026-07-01T00:00:00Z') },
        },
      ],
    },
    ...overrides,
  };
}

describe("the Stripe webhook's signature", () => {
  it('is checked on the exact bytes before anything is read', async () => {
    const event = signed('customer.created', { id: 'cus_x', object: 'customer' });
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => (error instanceof AppError ? error.code : error),
      );
    expect(await refusal(webhooks.receive(event.body, undefined))).toBe('bad_request');
    expect(await refusal(webhooks.receive(event.body, ''))).toBe('bad_request');
    expect(await refusal(webhooks.receive(event.body, [event.signature]))).toBe('bad_request');
    const forged = signed('customer.created', { id: 'cus_x', object: 'customer' }, 'whsec_other');
    expect(await refusal(webhooks.receive(forged.body, forged.signature))).toBe('bad_request');
    const tampered = Buffer.from(event.body.toString('utf8').replace('cus_x', 'cus_y'));
    expect(await refusal(webhooks.receive(tampered, event.signature))).toBe('bad_request');
    // Without a secret every event is refused as unavailable, and the operator is told why at start-up.
    const unconfigured = createStripeWebhooks(stripe, undefined);
    expect(unconfigured.notReady).toContain('STRIPE_WEBHOOK_SECRET');
    expect(webhooks.notReady).toBeNull();
    expect(await refusal(unconfigured.receive(event.body, event.signature))).toBe('service_unavailable');
    expect(webhooks.signatureHeader).toBe('stripe-signature');
  });
});

describe("Stripe's events read as the port's", () => {
  it('a paid subscription checkout: the workspace, the amounts charged and the subscription as Stripe holds it', async () => {
    const start = new Date('2026-06-01T10:00:00Z');
    const end = new Date('2026-07-01T10:00:00Z');
    const sub = fake.addSubscription({ customer: 'cus_unit', price: 'price_unit', start, end });
    const checkout = {
      id: 'cs_unit_paid',
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'paid',
      client_reference_id: 'ws_ref',
      customer: 'cus_unit',
      subscription: sub.id,
      amount_subtotal: 2200,
      amount_total: 1100,
      metadata: {
        workspace_id: 'ws_meta',
        tier: 'creator',
        billing_period: 'monthly_period',
        currency: 'usd',
        parla_session_id: 'cs_parla',
      },
    };
    const { event, calls } = await read('checkout.session.completed', checkout);
    expect(event).toEqual({
      eventId: expect.any(String),
      eventType: 'checkout.session.completed',
      kind: 'subscription_checkout_paid',
      // client_reference_id first, as the checkout was opened with it.
      subject: { workspaceId: 'ws_ref', customerId: 'cus_unit' },
      customerId: 'cus_unit',
      checkout: {
        id: 'cs_unit_paid',
        sessionId: 'cs_parla',
        tier: 'creator',
        billingPeriod: 'monthly_period',
        currency: 'usd',
        subtotalCents: 2200,
        totalCents: 1100,
      },
      subscription: {
        id: sub.id,
        status: 'active',
        currentPeriodStart: start,
        currentPeriodEnd: end,
        cancelAtPeriodEnd: false,
        scheduled: false,
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, behaviour: 'succeeds' },
      },
    } satisfies ProviderBillingEvent);
    expect(calls).toEqual([
      {
        method: 'GET',
        path: `/v1/subscriptions/${sub.id}`,
        params: { 'expand[0]': 'default_payment_method' },
      },
    ]);

    // Paid later (a bank debit) asks nothing and is not the plan's start yet; async_payment_succeeded is.
    const unpaid = await read('checkout.session.completed', { ...checkout, payment_status: 'unpaid' });
    expect(unpaid.event.kind).toBe('ignored');
    expect(unpaid.calls).toEqual([]);
    const later = await read('checkout.session.async_payment_succeeded', {
      ...checkout,
      client_reference_id: null,
      metadata: { tier: 'creator' },
    });
    // No workspace named: the billing module finds it by the customer.
    expect(later.event).toMatchObject({
      kind: 'subscription_checkout_paid',
      subject: { workspaceId: null, customerId: 'cus_unit' },
      checkout: { sessionId: null, tier: 'creator', billingPeriod: null, currency: null },
    });
    const withMetadataOnly = await read('checkout.session.completed', {
      ...checkout,
      client_reference_id: null,
    });
    expect(withMetadataOnly.event).toMatchObject({ subject: { workspaceId: 'ws_meta' } });
    // A payment-mode checkout is nothing billing opened.
    expect((await read('checkout.session.completed', { ...checkout, mode: 'payment' })).event.kind).toBe(
      'ignored',
    );
  });

  it('a card saved in a setup checkout: made the customer’s default at Stripe, told with its card', async () => {
    const customer = await stripe.customers.create({ email: 'unit@example.test' });
    const { event, calls } = await read('checkout.session.completed', {
      id: 'cs_unit_setup',
      object: 'checkout.session',
      mode: 'setup',
      client_reference_id: 'ws_ref',
      customer: customer.id,
      setup_intent: 'seti_unit',
      metadata: { workspace_id: 'ws_ref', parla_session_id: 'cs_parla_card' },
    });
    expect(event).toEqual({
      eventId: expect.any(String),
      eventType: 'checkout.session.completed',
      kind: 'card_saved',
      subject: { workspaceId: 'ws_ref', customerId: customer.id },
      providerCardId: 'pm_new',
      card: { brand: 'visa', last4: '5556', exp_month: 12, exp_year: 2030, behaviour: 'succeeds' },
      sessionId: 'cs_parla_card',
    } satisfies ProviderBillingEvent);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /v1/setup_intents/seti_unit',
      `POST /v1/customers/${customer.id}`,
    ]);
    expect(calls[1]?.params).toEqual({ 'invoice_settings[default_payment_method]': 'pm_new' });
    // A setup checkout with no intent saved nothing.
    const none = await read('checkout.session.completed', {
      id: 'cs_unit_setup_none',
      object: 'checkout.session',
      mode: 'setup',
      customer: customer.id,
      setup_intent: null,
      metadata: {},
    });
    expect(none).toEqual({ event: expect.objectContaining({ kind: 'ignored' }), calls: [] });
  });

  it('invoices: paid, failed and written off, with the period they pay for and the amounts', async () => {
    const facts = {
      id: 'in_unit_1',
      subscriptionId: 'sub_unit',
      renewal: true,
      periodStart: new Date('2026-06-01T00:00:00Z'),
      periodEnd: new Date('2026-07-01T00:00:00Z'),
      subtotalCents: 2200,
      totalCents: 1980,
      amountDueCents: 1980,
      nextAttemptAt: new Date('2026-07-04T00:00:00Z'),
    };
    const subject = { workspaceId: 'ws_unit', customerId: 'cus_unit' };
    for (const [type, kind] of [
      ['invoice.paid', 'invoice_paid'],
      ['invoice.payment_failed', 'invoice_payment_failed'],
      ['invoice.voided', 'invoice_written_off'],
      ['invoice.marked_uncollectible', 'invoice_written_off'],
    ] as const) {
      const { event, calls } = await read(type, renewalInvoice());
      expect(event).toEqual({ eventId: expect.any(String), eventType: type, kind, subject, invoice: facts });
      expect(calls).toEqual([]);
    }
    // The first invoice or an upgrade's is no renewal; no lines: the invoice's own period; no retry.
    const first = await read(
      'invoice.paid',
      renewalInvoice({
        billing_reason: 'subscription_create',
        next_payment_attempt: null,
        period_start: unix('2026-06-01T00:00:00Z'),
        period_end: unix('2026-06-02T00:00:00Z'),
        lines: { object: 'list', data: [] },
        parent: { type: 'subscription_details', subscription_details: { subscription: { id: 'sub_unit' } } },
      }),
    );
    expect(first.event).toMatchObject({
      subject: { workspaceId: null, customerId: 'cus_unit' },
      invoice: {
        renewal: false,
        nextAttemptAt: null,
        periodStart: new Date('2026-06-01T00:00:00Z'),
        periodEnd: new Date('2026-06-02T00:00:00Z'),
      },
    });
    // An invoice outside a subscription is nothing billing applies.
    expect((await read('invoice.paid', renewalInvoice({ parent: null }))).event.kind).toBe('ignored');
  });

  it('subscription changes name the subscription (read afresh later); other events are ignored', async () => {
    const updated = await read('customer.subscription.updated', {
      id: 'sub_unit',
      object: 'subscription',
      customer: { id: 'cus_unit', object: 'customer' },
      metadata: { workspace_id: 'ws_unit' },
    });
    expect(updated).toEqual({
      event: {
        eventId: expect.any(String),
        eventType: 'customer.subscription.updated',
        kind: 'subscription_updated',
        subject: { workspaceId: 'ws_unit', customerId: 'cus_unit' },
        subscriptionId: 'sub_unit',
      },
      calls: [],
    });
    const deleted = await read('customer.subscription.deleted', {
      id: 'sub_unit',
      object: 'subscription',
      customer: 'cus_unit',
      status: 'canceled',
      metadata: {},
    });
    expect(deleted.event).toMatchObject({
      kind: 'subscription_deleted',
      subject: { workspaceId: null, customerId: 'cus_unit' },
      subscriptionId: 'sub_unit',
    });
    expect(await read('customer.created', { id: 'cus_x', object: 'customer' })).toEqual({
      event: { eventId: expect.any(String), eventType: 'customer.created', kind: 'ignored' },
      calls: [],
    });
  });
});

describe("the calls the billing module makes while applying Stripe's events", () => {
  it('reads a subscription afresh: its status in our words, its period and whether a schedule runs it', async () => {
    const start = new Date('2026-06-01T00:00:00Z');
    const end = new Date('2026-07-01T00:00:00Z');
    const sub = fake.addSubscription({ customer: 'cus_unit', price: 'price_unit', start, end });
    sub.status = 'unpaid';
    sub.cancelAtPeriodEnd = true;
    sub.schedule = 'sub_sched_unit';
    expect(await webhooks.readSubscription(sub.id)).toMatchObject({
      id: sub.id,
      status: 'past_due',
      currentPeriodStart: start,
      currentPeriodEnd: end,
      cancelAtPeriodEnd: true,
      scheduled: true,
    });
    sub.status = 'canceled';
    expect((await webhooks.readSubscription(sub.id)).status).toBeNull();
  });

  it('cancels a subscription now, makes a card the subscription’s, and pays an open invoice', async () => {
    const sub = fake.addSubscription({
      customer: 'cus_unit',
      price: 'price_unit',
      start: new Date('2026-06-01T00:00:00Z'),
      end: new Date('2026-07-01T00:00:00Z'),
    });
    await webhooks.cancelSubscriptionNow(sub.id);
    expect(fake.callsTo('DELETE', `/v1/subscriptions/${sub.id}`)).toHaveLength(1);
    await webhooks.useCardForSubscription(sub.id, 'pm_unit');
    expect(fake.callsTo('POST', `/v1/subscriptions/${sub.id}`).at(-1)?.params).toEqual({
      default_payment_method: 'pm_unit',
    });
    expect(await webhooks.payInvoice('in_unit_open')).toEqual({ ok: true });
    expect(fake.callsTo('POST', '/v1/invoices/in_unit_open/pay')).toHaveLength(1);
    // A decline is a result (the invoice stays open; Stripe retries it), anything else an error.
    const card = new Stripe.errors.StripeCardError({
      type: 'card_error',
      message: 'Your card was declined.',
    });
    expect(declined(card)).toEqual({ ok: false, message: 'Your card was declined.' });
    const outage = new Stripe.errors.StripeConnectionError({ type: 'api_error', message: 'down' });
    expect(() => declined(outage)).toThrow(AppError);
    // A missing subscription is Stripe's answer, not an outage: it stays an error of its own.
    await expect(webhooks.cancelSubscriptionNow('sub_missing')).rejects.toBeInstanceOf(
      Stripe.errors.StripeInvalidRequestError,
    );
  });

  it("maps each of Stripe's subscription statuses to ours", () => {
    expect(
      Object.fromEntries(
        (
          [
            'active',
            'trialing',
            'past_due',
            'incomplete',
            'unpaid',
            'paused',
            'canceled',
            'incomplete_expired',
          ] as const
        ).map((status) => [status, statusOf(status)]),
      ),
    ).toEqual({
      active: 'active',
      trialing: 'trialing',
      past_due: 'past_due',
      incomplete: 'incomplete',
      unpaid: 'past_due',
      paused: 'past_due',
      canceled: null,
      incomplete_expired: null,
    });
  });
});
