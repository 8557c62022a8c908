import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { PREMADE_VOICES, TEST_CARDS } from '@parla/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../../test/factories';
import { sessionCalls } from '../../test/session-calls';
import { characterCountOf, setCharacterCount } from '../../test/speech-fixtures';
import { createTestApp, spendDepsOf, type TestApp } from '../../test/test-app';
import { chargeCredits, openGeneration, refundGeneration } from '../credits/credits.service';
import { creditLedger } from '../credits/credits.tables';
import { addPeriod } from './billing.pricing';
import { billingDepsOf } from './billing.routes';
import { billingInvoices } from './billing.tables';
import { createPromoCode } from './promo-codes.service';
import { runBillingRenewals } from './renewals.service';

const DAY = 24 * 60 * 60 * 1000;
// Starts at real time (sign-in tokens are checked against it) and only moves forward.
let now = new Date();
const clock = { now: () => now };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

type Account = Awaited<ReturnType<typeof signUpWithApiKey>>;

const { call, subscription, overview } = sessionCalls(() => t.app);
const sessionIdOf = (url: unknown) => String(url).split('/').at(-1) ?? '';

async function pay(sessionId: string, card: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/billing/sessions/${sessionId}/card`,
    payload: {
      card_number: card,
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
      cardholder_name: 'Ada Lovelace',
    },
  });
  return {
    status: res.statusCode,
    body: res.json() as Record<string, unknown> & { detail?: { status: string; message: string } },
  };
}

async function checkout(account: Account, body: Record<string, unknown> = {}) {
  const res = await call(account, '/v1/billing/create-checkout-session', {
    subscription_type: 'creator',
    billing_period: 'monthly_period',
    currency: 'usd',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return sessionIdOf(res.body.url);
}

async function subscribe(account: Account, tier = 'creator', card: string = TEST_CARDS.succeeds) {
  const id = await checkout(account, { subscription_type: tier });
  const paid = await pay(id, card);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return id;
}

async function renewals() {
  return runBillingRenewals(billingDepsOf(t.deps));
}

async function speak(account: Account, text = 'Hello there.') {
  return t.app.inject({
    method: 'POST',
    url: `/v1/text-to-speech/${PREMADE_VOICES[0]?.voice_id}`,
    headers: { 'xi-api-key': account.apiKey },
    payload: { text, model_id: 'parla_multilingual_v1' },
  });
}

describe('the subscription lifecycle with the built-in test-mode provider', () => {
  it('free → checkout → upgrade → downgrade scheduled and cancelled → cancel → renew → the period ends and renews', async () => {
    const account = await signUpWithApiKey(t.app);
    expect(await subscription(account)).toMatchObject({
      tier: 'free',
      status: 'free',
      character_limit: 10_000,
    });

    // Checkout: the hosted page shows Creator with the first-month offer ($11 of $22).
    const sessionId = await checkout(account);
    const page = await t.app.inject({ method: 'GET', url: `/v1/billing/sessions/${sessionId}` });
    expect(page.json()).toMatchObject({
      kind: 'checkout',
      status: 'open',
      plan_name: 'Creator',
      price_cents: 2200,
      amount_due_cents: 1100,
      discount_description: 'First month 50% off',
    });
    expect(await pay(sessionId, TEST_CARDS.succeeds)).toMatchObject({
      status: 200,
      body: { status: 'succeeded', redirect_url: expect.stringContaining('/app/subscription') },
    });
    const started = now;
    let sub = await subscription(account);
    expect(sub).toMatchObject({
      tier: 'creator',
      status: 'active',
      billing_period: 'monthly_period',
      character_limit: 100_000,
      character_count: 0,
      has_open_invoices: false,
      pending_change: null,
      next_invoice: { amount_due_cents: 2200 },
    });
    expect(sub.next_character_count_reset_unix).toBe(
      Math.floor(addPeriod(started, 'month').getTime() / 1000),
    );
    // The first-month offers are gone for this workspace, and still offered to visitors.
    const creatorPrice = (plans: { plans: { plan_id: string; pricing: { monthly: unknown } }[] }) =>
      plans.plans.find((p) => p.plan_id === 'creator')?.pricing.monthly;
    expect(
      creatorPrice((await call(account, '/v1/billing/plans', undefined, 'GET')).body as never),
    ).toMatchObject({
      discounted_price: null,
    });
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/billing/plans?currency=eur' });
    expect(creatorPrice(anonymous.json())).toMatchObject({ price: 21, discounted_price: 10.5 });
    // The page is done; paying again is refused.
    expect((await pay(sessionId, TEST_CARDS.succeeds)).status).toBe(409);
    // No second checkout while subscribed.
    expect(
      (
        await call(account, '/v1/billing/create-checkout-session', {
          subscription_type: 'pro',
          billing_period: 'monthly_period',
          currency: 'usd',
        })
      ).status,
    ).toBe(409);

    // Upgrade ten days in: charged now, prorated; the same idempotency key answers the same, once.
    now = new Date(started.getTime() + 10 * DAY);
    const upgrade = {
      subscription_type: 'pro',
      billing_period: 'monthly_period',
      idempotency_key: 'upgrade-key-1',
    };
    expect(await call(account, '/v1/billing/change-subscription', upgrade)).toMatchObject({
      status: 200,
      body: { status: 'ok', change: 'upgrade' },
    });
    expect(await call(account, '/v1/billing/change-subscription', upgrade)).toMatchObject({
      status: 200,
      body: { status: 'ok', change: 'upgrade' },
    });
    const invoices = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.workspaceId, account.workspaceId))
      .orderBy(billingInvoices.createdAt);
    expect(invoices.map((i) => [i.kind, i.status])).toEqual([
      ['subscription_create', 'paid'],
      ['subscription_update', 'paid'],
    ]);
    // The unused days of Creator's $22 are credited against Pro's $99.
    const periodMs = addPeriod(started, 'monthly_period').getTime() - started.getTime();
    const unused = Math.round((2200 * (periodMs - 10 * DAY)) / periodMs);
    expect(invoices[1]?.amountDueCents).toBe(9900 - unused);
    // A key reused for another request is refused.
    expect(
      (
        await call(account, '/v1/billing/change-subscription', {
          ...upgrade,
          subscription_type: 'growing_business',
        })
      ).status,
    ).toBe(409);
    sub = await subscription(account);
    expect(sub).toMatchObject({ tier: 'pro', status: 'active', character_limit: 500_000 });

    // Downgrade: scheduled at the period end, with the schedule metadata of accounts §3.
    expect(
      await call(account, '/v1/billing/change-subscription', {
        subscription_type: 'starter',
        billing_period: 'monthly_period',
        idempotency_key: 'downgrade-key-1',
      }),
    ).toMatchObject({ status: 200, body: { change: 'downgrade' } });
    sub = await subscription(account);
    expect(sub).toMatchObject({
      tier: 'pro',
      pending_change: { kind: 'change', next_tier: 'starter', next_billing_period: 'monthly_period' },
    });
    expect(await overview(account)).toMatchObject({
      card_payment_provider: { schedule: { metadata: { type: 'downgrade', downgrade_to: 'starter' } } },
      payment_method: { brand: 'visa', last4: '4242' },
      first_month_offer_eligible: false,
    });
    expect((await call(account, '/v1/billing/cancel-downgrade')).status).toBe(200);
    expect((await subscription(account)).pending_change).toBeNull();
    expect((await call(account, '/v1/billing/cancel-downgrade')).status).toBe(409);

    // Cancel at the period end, then take it back.
    expect((await call(account, '/v1/billing/cancel-subscription')).status).toBe(200);
    expect((await subscription(account)).pending_change).toMatchObject({ kind: 'cancellation' });
    expect((await overview(account)).card_payment_provider).toMatchObject({ cancel_at_period_end: true });
    expect((await call(account, '/v1/billing/renew-subscription')).status).toBe(200);
    expect((await subscription(account)).pending_change).toBeNull();

    // Credits are spent, then the period ends: a paid renewal invoice, the count back to 0.
    expect((await speak(account)).statusCode).toBe(200);
    expect((await subscription(account)).character_count).toBeGreaterThan(0);
    now = new Date(addPeriod(now, 'monthly_period').getTime() + 60_000);
    await renewals();
    sub = await subscription(account);
    expect(sub).toMatchObject({
      tier: 'pro',
      status: 'active',
      character_count: 0,
      has_open_invoices: false,
    });
    expect(Number(sub.next_character_count_reset_unix) * 1000).toBeGreaterThan(now.getTime());
    const cycle = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(
        and(
          eq(billingInvoices.workspaceId, account.workspaceId),
          eq(billingInvoices.kind, 'subscription_cycle'),
        ),
      );
    expect(cycle.map((i) => [i.status, i.amountDueCents])).toEqual([['paid', 9900]]);
    // Running the job again changes nothing.
    await renewals();
    expect((await subscription(account)).next_invoice).toEqual(sub.next_invoice);

    // A cancellation ends the plan at the next period end.
    expect((await call(account, '/v1/billing/cancel-subscription')).status).toBe(200);
    now = new Date(now.getTime() + 32 * DAY);
    await renewals();
    expect(await subscription(account)).toMatchObject({
      tier: 'free',
      status: 'free',
      billing_period: null,
      character_limit: 10_000,
    });
  });

  it('a declined card leaves the subscription incomplete with its invoice open; paying it later activates', async () => {
    const account = await signUpWithApiKey(t.app);
    const id = await checkout(account, { subscription_type: 'starter' });
    const declined = await pay(id, TEST_CARDS.declined);
    expect(declined).toMatchObject({
      status: 402,
      body: { detail: { status: 'card_declined', message: 'Your card was declined.' } },
    });
    expect(await subscription(account)).toMatchObject({
      tier: 'free',
      status: 'incomplete',
      has_open_invoices: true,
    });
    // Payment trouble blocks generation (accounts §4) with a clear error.
    const refused = await speak(account);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ detail: { status: 'payment_required' } });
    // No new checkout while the first payment is open.
    expect(
      (
        await call(account, '/v1/billing/create-checkout-session', {
          subscription_type: 'creator',
          billing_period: 'monthly_period',
          currency: 'usd',
        })
      ).status,
    ).toBe(409);
    // The same page takes another card.
    expect((await t.app.inject({ method: 'GET', url: `/v1/billing/sessions/${id}` })).json()).toMatchObject({
      last_error: 'Your card was declined.',
    });
    expect((await pay(id, TEST_CARDS.succeeds)).status).toBe(200);
    expect(await subscription(account)).toMatchObject({
      tier: 'starter',
      status: 'active',
      has_open_invoices: false,
    });
    expect((await speak(account)).statusCode).toBe(200);
  });

  it('an unpaid first invoice lapses after 23 hours and the workspace is free again', async () => {
    const account = await signUpWithApiKey(t.app);
    await pay(await checkout(account), TEST_CARDS.insufficientFunds);
    expect((await subscription(account)).status).toBe('incomplete');
    now = new Date(now.getTime() + 24 * 60 * 60 * 1000);
    await renewals();
    expect(await subscription(account)).toMatchObject({
      tier: 'free',
      status: 'free',
      has_open_invoices: false,
    });
  });

  it('a card that asks for authentication takes a second step', async () => {
    const account = await signUpWithApiKey(t.app);
    const id = await checkout(account);
    expect(await pay(id, TEST_CARDS.requiresAuthentication)).toMatchObject({
      status: 200,
      body: { status: 'requires_action' },
    });
    const fail = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/sessions/${id}/authenticate`,
      payload: { approve: false },
    });
    expect(fail.statusCode).toBe(402);
    expect((await subscription(account)).status).toBe('incomplete');
    expect(await pay(id, TEST_CARDS.requiresAuthentication)).toMatchObject({
      body: { status: 'requires_action' },
    });
    const ok = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/sessions/${id}/authenticate`,
      payload: { approve: true },
    });
    expect(ok.json()).toMatchObject({ status: 'succeeded' });
    expect(await subscription(account)).toMatchObject({ tier: 'creator', status: 'active' });
  });

  it('a failed renewal makes the subscription past_due and refuses generation until a new card pays', async () => {
    const account = await signUpWithApiKey(t.app);
    await subscribe(account);
    // The new card saves fine and declines every charge.
    const change = await call(account, '/v1/billing/create-update-payment-methods-session');
    expect(change.status).toBe(200);
    expect((await pay(sessionIdOf(change.body.url), TEST_CARDS.chargeFails)).status).toBe(200);
    now = new Date(now.getTime() + 32 * DAY);
    await renewals();
    expect(await subscription(account)).toMatchObject({
      tier: 'creator',
      status: 'past_due',
      has_open_invoices: true,
    });
    // The owner is told under the bell.
    const bell = await call(account, '/v1/user/messages', undefined, 'GET');
    expect(bell.body.messages).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        title: 'Your subscription payment failed',
        needs_attention: true,
      }),
    );
    const refused = await speak(account);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().detail.message).toContain('The last payment of your subscription failed.');
    // Upgrading needs an active subscription.
    expect(
      (
        await call(account, '/v1/billing/change-subscription', {
          subscription_type: 'pro',
          billing_period: 'monthly_period',
          idempotency_key: 'past-due-upgrade',
        })
      ).status,
    ).toBe(409);
    // The portal shows the open invoice; a good card pays it at once.
    const portal = await call(account, '/v1/billing/create-portal-session');
    const portalPage = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/sessions/${sessionIdOf(portal.body.url)}`,
    });
    const open = (portalPage.json() as { invoices: { status: string; invoice_id: string }[] }).invoices.find(
      (i) => i.status === 'open',
    );
    expect(open).toBeDefined();
    const declinedAgain = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/sessions/${sessionIdOf(portal.body.url)}/invoices/${open?.invoice_id}/pay`,
    });
    expect(declinedAgain.statusCode).toBe(402);
    const fix = await call(account, '/v1/billing/create-update-payment-methods-session');
    expect((await pay(sessionIdOf(fix.body.url), TEST_CARDS.succeeds)).status).toBe(200);
    expect(await subscription(account)).toMatchObject({ status: 'active', has_open_invoices: false });
    expect((await speak(account)).statusCode).toBe(200);
  });
});

describe('one subscription, one use of each code', () => {
  it('a second open checkout charges nothing once the first is paid, and the first upgrade moves the credit reset', async () => {
    const account = await signUpWithApiKey(t.app);
    const first = await checkout(account);
    const second = await checkout(account, { subscription_type: 'pro' });
    expect((await pay(first, TEST_CARDS.succeeds)).status).toBe(200);
    // The other page was closed by the first payment: neither a good nor a declined card does anything.
    expect((await pay(second, TEST_CARDS.succeeds)).status).toBe(409);
    expect((await pay(second, TEST_CARDS.declined)).status).toBe(409);
    expect(await subscription(account)).toMatchObject({ tier: 'creator', status: 'active' });
    const invoices = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.workspaceId, account.workspaceId));
    expect(invoices).toHaveLength(1);

    now = new Date(now.getTime() + 5 * DAY);
    expect(
      (
        await call(account, '/v1/billing/change-subscription', {
          subscription_type: 'pro',
          billing_period: 'monthly_period',
          idempotency_key: 'reset-moves-1',
        })
      ).status,
    ).toBe(200);
    expect((await subscription(account)).next_character_count_reset_unix).toBe(
      Math.floor(addPeriod(now, 'month').getTime() / 1000),
    );
  });

  it('two declined checkouts: a new card pays one first invoice, and the other is voided, not charged', async () => {
    const account = await signUpWithApiKey(t.app);
    const first = await checkout(account);
    const second = await checkout(account, { subscription_type: 'pro' });
    expect((await pay(first, TEST_CARDS.declined)).status).toBe(402);
    expect((await pay(second, TEST_CARDS.declined)).status).toBe(402);
    const card = await call(account, '/v1/billing/create-update-payment-methods-session');
    expect((await pay(sessionIdOf(card.body.url), TEST_CARDS.succeeds)).status).toBe(200);
    expect(await subscription(account)).toMatchObject({ status: 'active', has_open_invoices: false });
    const invoices = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.workspaceId, account.workspaceId));
    expect(invoices.map((i) => i.status).sort()).toEqual(['paid', 'void']);
  });

  it('a promo code and a special offer work once per workspace', async () => {
    const code = `ONCE${Date.now()}`;
    await createPromoCode(t.deps.database.db, { code, percentOff: 10, durationInMonths: 1 });
    const account = await signUpWithApiKey(t.app);
    const id = await checkout(account, { promocode: code });
    expect((await pay(id, TEST_CARDS.succeeds)).status).toBe(200);
    expect((await call(account, '/v1/billing/validate-promocode', { promocode: code })).body).toMatchObject({
      valid: false,
    });
    expect(
      (await call(account, '/v1/billing/apply-discount', { discount_code: 'special-offer-70' })).status,
    ).toBe(200);
    expect(
      (await call(account, '/v1/billing/apply-discount', { discount_code: 'special-offer-30' })).status,
    ).toBe(409);
    // Another workspace may still use the promo code.
    const other = await signUpWithApiKey(t.app);
    expect((await call(other, '/v1/billing/validate-promocode', { promocode: code })).body).toMatchObject({
      valid: true,
    });
  });
});

describe('an annual plan', () => {
  it('refreshes its credits every month and invoices once a year', async () => {
    const account = await signUpWithApiKey(t.app);
    const id = await checkout(account, { billing_period: 'annual_period' });
    expect((await pay(id, TEST_CARDS.succeeds)).status).toBe(200);
    expect((await speak(account)).statusCode).toBe(200);
    const before = await subscription(account);
    expect(before.character_count).toBeGreaterThan(0);
    now = new Date(Number(before.next_character_count_reset_unix) * 1000 + 60_000);
    await renewals();
    const after = await subscription(account);
    expect(after).toMatchObject({ tier: 'creator', billing_period: 'annual_period', character_count: 0 });
    expect(Number(after.next_character_count_reset_unix)).toBeGreaterThan(
      Number(before.next_character_count_reset_unix),
    );
    const invoices = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.workspaceId, account.workspaceId));
    expect(invoices.map((i) => [i.kind, i.amountDueCents])).toEqual([['subscription_create', 22_000]]);
  });
});

describe('the official SDK', () => {
  it('reads the subscription with its next invoice and pending change, and the usage stats', async () => {
    const account = await signUpWithApiKey(t.app);
    await subscribe(account, 'pro');
    await call(account, '/v1/billing/change-subscription', {
      subscription_type: 'creator',
      billing_period: 'monthly_period',
      idempotency_key: 'sdk-downgrade-1',
    });
    expect((await speak(account)).statusCode).toBe(200);
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const sdk = new ElevenLabsClient({ apiKey: account.apiKey, baseUrl, maxRetries: 0 });
    const sub = await sdk.user.subscription.get();
    expect(sub).toMatchObject({
      tier: 'pro',
      status: 'active',
      billingPeriod: 'monthly_period',
      hasOpenInvoices: false,
      nextInvoice: { amountDueCents: 2200 },
      pendingChange: { kind: 'change', nextTier: 'creator', nextBillingPeriod: 'monthly_period' },
    });
    const usage = await sdk.usage.get({
      startUnix: now.getTime() - DAY,
      endUnix: now.getTime() + DAY,
      breakdownType: 'voice',
    });
    expect(usage.time).toHaveLength(3);
    expect(
      Object.values(usage.usage)
        .flat()
        .reduce((a, b) => a + b, 0),
    ).toBe(sub.characterCount);
  });
});

describe('a renewal that never gets paid', () => {
  it('is retried every three days; after the fourth failure the plan ends as free_disabled until the invoice is paid', async () => {
    const account = await signUpWithApiKey(t.app);
    await subscribe(account);
    const change = await call(account, '/v1/billing/create-update-payment-methods-session');
    await pay(sessionIdOf(change.body.url), TEST_CARDS.chargeFails);
    now = new Date(now.getTime() + 32 * DAY);
    await renewals();
    for (let retry = 0; retry < 3; retry++) {
      expect((await subscription(account)).status).toBe('past_due');
      now = new Date(now.getTime() + 3 * DAY + 60_000);
      await renewals();
    }
    expect(await subscription(account)).toMatchObject({
      tier: 'free',
      status: 'free_disabled',
      has_open_invoices: true,
    });
    expect((await speak(account)).statusCode).toBe(402);
    const [open] = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.workspaceId, account.workspaceId), eq(billingInvoices.status, 'open')));
    expect(open?.attempts).toBe(4);
    // Nothing more is tried on its own.
    now = new Date(now.getTime() + 10 * DAY);
    await renewals();
    expect((await subscription(account)).status).toBe('free_disabled');
    // A new card, from the portal's own change-card page (no sign-in needed there), pays what is owed:
    // a plain free workspace again.
    const portal = await call(account, '/v1/billing/create-portal-session');
    const fix = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/sessions/${sessionIdOf(portal.body.url)}/payment-method-session`,
      payload: {},
    });
    expect(fix.statusCode).toBe(200);
    expect((await pay(sessionIdOf(fix.json().url), TEST_CARDS.succeeds)).status).toBe(200);
    expect(await subscription(account)).toMatchObject({
      tier: 'free',
      status: 'free',
      has_open_invoices: false,
    });
    expect((await speak(account)).statusCode).toBe(200);
  });
});

describe('codes and offers', () => {
  it('validates promo codes and discounts the checkout with them; discount codes take a share off the next invoice', async () => {
    const code = `PROMO${Date.now()}`;
    await createPromoCode(t.deps.database.db, { code, amountOff: 2200, durationInMonths: 1 });
    await createPromoCode(t.deps.database.db, {
      code: `${code}-OLD`,
      percentOff: 50,
      expiresAt: new Date(now.getTime() - DAY),
    });
    const account = await signUpWithApiKey(t.app);
    expect(await call(account, '/v1/billing/validate-promocode', { promocode: code })).toMatchObject({
      status: 200,
      body: { valid: true, amount_off: 2200, percent_off: null, duration_in_months: 1 },
    });
    expect((await call(account, '/v1/billing/validate-promocode', { promocode: 'NOPE' })).body).toMatchObject(
      { valid: false },
    );
    expect(await call(account, '/v1/billing/validate-promocode', { promocode: `${code}-OLD` })).toMatchObject(
      {
        status: 400,
        body: { detail: { status: 'coupon_expired' } },
      },
    );
    expect(
      await call(account, '/v1/billing/create-checkout-session', {
        subscription_type: 'creator',
        billing_period: 'monthly_period',
        currency: 'usd',
        promocode: 'NOPE',
      }),
    ).toMatchObject({
      status: 400,
      body: { detail: { status: 'invalid_promocode', message: 'Coupon code NOPE is invalid' } },
    });
    const id = await checkout(account, { promocode: code });
    expect((await t.app.inject({ method: 'GET', url: `/v1/billing/sessions/${id}` })).json()).toMatchObject({
      amount_due_cents: 0,
    });
    expect((await pay(id, TEST_CARDS.succeeds)).status).toBe(200);

    expect(
      (await call(account, '/v1/billing/apply-discount', { discount_code: 'special-offer-20' })).status,
    ).toBe(400);
    expect(
      (await call(account, '/v1/billing/apply-discount', { discount_code: 'special-offer-50' })).status,
    ).toBe(200);
    expect((await subscription(account)).next_invoice).toMatchObject({
      amount_due_cents: 1100,
      discount_percent_off: 50,
    });
  });

  it('the overview shows the discount the period was paid with, and what is left of it (issue 26 item 7)', async () => {
    // The first-month offer: used up by the invoice it discounted, yet that period was paid half price.
    const offered = await signUpWithApiKey(t.app);
    await subscribe(offered);
    const paidAt = now;
    expect(await overview(offered)).toMatchObject({
      discount: null,
      applied_discount: {
        description: 'First month 50% off',
        amount_off_cents: 1100,
        period_end_unix: Math.floor(addPeriod(paidAt, 'monthly_period').getTime() / 1000),
      },
    });

    // A promo code for three months: this period's share, and two more months to come.
    const code = `THIRDS${Date.now()}`;
    await createPromoCode(t.deps.database.db, { code, percentOff: 20, durationInMonths: 3 });
    const promoted = await signUpWithApiKey(t.app);
    expect((await pay(await checkout(promoted, { promocode: code }), TEST_CARDS.succeeds)).status).toBe(200);
    expect(await overview(promoted)).toMatchObject({
      applied_discount: { description: `${code}: 20% off`, amount_off_cents: 440 },
      discount: { code, percent_off: 20, months_left: 2 },
    });
    // The next period renews with the second month of it.
    now = new Date(addPeriod(now, 'monthly_period').getTime() + 60_000);
    await renewals();
    expect(await overview(promoted)).toMatchObject({
      applied_discount: { description: `${code}: 20% off`, amount_off_cents: 440 },
      discount: { code, months_left: 1 },
    });
    // The offer's period is over and its renewal paid the full price: nothing applies now.
    expect((await overview(offered)).applied_discount).toBeNull();
  });

  it('asks the full price when the user opts out of the first-month offer, and in euros when asked', async () => {
    const account = await signUpWithApiKey(t.app);
    const id = await checkout(account, {
      no_default_promocode: true,
      currency: 'eur',
      billing_period: 'annual_period',
    });
    expect((await t.app.inject({ method: 'GET', url: `/v1/billing/sessions/${id}` })).json()).toMatchObject({
      currency: 'eur',
      amount_due_cents: 21_000,
      discount_description: null,
    });
  });

  it('refuses bad input and other workspaces’ things with the error shape, changing nothing', async () => {
    const account = await signUpWithApiKey(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/v1/billing/sessions/cs_nope' })).statusCode).toBe(404);
    expect(
      (
        await call(account, '/v1/billing/create-checkout-session', {
          subscription_type: 'enterprise',
          billing_period: 'monthly_period',
          currency: 'usd',
        })
      ).status,
    ).toBe(422);
    const id = await checkout(account);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/sessions/${id}/card`,
      payload: {
        card_number: '4242424242424241',
        exp_month: 12,
        exp_year: 2030,
        cvc: '123',
        cardholder_name: 'A',
      },
    });
    expect(bad.json()).toMatchObject({
      detail: { status: 'card_declined', message: 'Your card number is invalid.' },
    });
    expect((await subscription(account)).status).toBe('free');
    // Another workspace's invoice through my portal: not found.
    const other = await signUpWithApiKey(t.app);
    await subscribe(other);
    const [theirs] = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.workspaceId, other.workspaceId));
    await subscribe(account);
    const portal = await call(account, '/v1/billing/create-portal-session');
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/sessions/${sessionIdOf(portal.body.url)}/invoices/${theirs?.id}/pay`,
    });
    expect(res.statusCode).toBe(404);
    // An API key may read the subscription but not change it.
    const withKey = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/cancel-subscription',
      headers: { 'xi-api-key': account.apiKey },
      payload: {},
    });
    expect(withKey.statusCode).toBe(403);
  });
});

describe('credits', () => {
  it('50 concurrent charges against a quota that allows 10: exactly 10 succeed and the ledger balances', async () => {
    const account = await signUpWithApiKey(t.app);
    const db = t.deps.database.db;
    await setCharacterCount(db, account.workspaceId, 10_000 - 100);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        chargeCredits(spendDepsOf(t), { workspaceId: account.workspaceId, amount: 10, now, modelId: 'm' }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const refusals = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(new Set(refusals.map((r) => (r.reason as { code: string }).code))).toEqual(
      new Set(['quota_exceeded']),
    );
    expect(await characterCountOf(db, account.workspaceId)).toBe(10_000);
    const [ledger] = await db
      .select({ charged: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::int` })
      .from(creditLedger)
      .where(and(eq(creditLedger.workspaceId, account.workspaceId), eq(creditLedger.kind, 'charge')));
    expect(ledger?.charged).toBe(100);
  });

  it('charts the credits used per day by model and voice, refunds subtracted', async () => {
    const account = await signUpWithApiKey(t.app);
    expect((await speak(account, 'One two three.')).statusCode).toBe(200);
    // A generation that failed: charged, then refunded, under its model.
    const db = t.deps.database.db;
    const failed = await openGeneration(spendDepsOf(t), {
      workspaceId: account.workspaceId,
      amount: 40,
      now,
      leaseMs: 60_000,
      modelId: 'parla_multilingual_v1',
    });
    await refundGeneration(db, failed.slotId, now);
    const start = now.getTime() - 2 * DAY;
    const res = await call(
      account,
      `/v1/usage/character-stats?start_unix=${start}&end_unix=${now.getTime() + DAY}&breakdown_type=model`,
      undefined,
      'GET',
    );
    expect(res.status).toBe(200);
    const body = res.body as unknown as { time: number[]; usage: Record<string, number[]> };
    expect(body.time).toHaveLength(4);
    expect(body.usage.parla_multilingual_v1?.reduce((a, b) => a + b, 0)).toBe(
      (await subscription(account)).character_count,
    );
    const bad = await call(
      account,
      `/v1/usage/character-stats?start_unix=${start}&end_unix=${start}`,
      undefined,
      'GET',
    );
    expect(bad.status).toBe(422);
  });
});
