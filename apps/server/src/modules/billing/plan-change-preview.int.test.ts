import { TEST_CARDS } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../../test/factories';
import { sessionCalls } from '../../test/session-calls';
import { createTestApp, type TestApp } from '../../test/test-app';
import { addPeriod } from './billing.pricing';
import { billingInvoices } from './billing.tables';

const DAY = 24 * 60 * 60 * 1000;
let now = new Date();
const clock = { now: () => now };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const { call } = sessionCalls(() => t.app);

async function subscribeCreator() {
  const account = await signUpWithApiKey(t.app);
  const opened = await call(account, '/v1/billing/create-checkout-session', {
    subscription_type: 'creator',
    billing_period: 'monthly_period',
    currency: 'usd',
  });
  const sessionId = String(opened.body.url).split('/').at(-1);
  const paid = await t.app.inject({
    method: 'POST',
    url: `/v1/billing/sessions/${sessionId}/card`,
    payload: {
      card_number: TEST_CARDS.succeeds,
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
      cardholder_name: 'Ada Lovelace',
    },
  });
  expect(paid.statusCode).toBe(200);
  return account;
}

describe('POST /v1/billing/preview-subscription-change (issue 18)', () => {
  it('answers the prorated charge of an upgrade before it is made, and the change charges exactly that', async () => {
    const started = now;
    const account = await subscribeCreator();
    now = new Date(started.getTime() + 10 * DAY);
    const preview = await call(account, '/v1/billing/preview-subscription-change', {
      subscription_type: 'pro',
      billing_period: 'monthly_period',
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const periodMs = addPeriod(started, 'monthly_period').getTime() - started.getTime();
    const unused = Math.round((2200 * (periodMs - 10 * DAY)) / periodMs);
    expect(preview.body).toEqual({
      change: 'upgrade',
      currency: 'usd',
      new_price_cents: 9900,
      unused_credit_cents: unused,
      amount_due_cents: 9900 - unused,
      effective_at_unix: Math.floor(now.getTime() / 1000),
    });
    // Nothing was charged or changed by the preview.
    const before = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.workspaceId, account.workspaceId));
    expect(before).toHaveLength(1);

    const changed = await call(account, '/v1/billing/change-subscription', {
      subscription_type: 'pro',
      billing_period: 'monthly_period',
      idempotency_key: 'preview-then-upgrade',
    });
    expect(changed.body).toEqual({ status: 'ok', change: 'upgrade' });
    const after = await t.deps.database.db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.workspaceId, account.workspaceId))
      .orderBy(billingInvoices.createdAt);
    expect(after.at(-1)?.amountDueCents).toBe(preview.body.amount_due_cents);
  });

  it('answers a downgrade’s date (the period end) and no charge', async () => {
    const account = await subscribeCreator();
    const preview = await call(account, '/v1/billing/preview-subscription-change', {
      subscription_type: 'starter',
      billing_period: 'monthly_period',
    });
    expect(preview.body).toMatchObject({ change: 'downgrade', amount_due_cents: 0, unused_credit_cents: 0 });
    const periodEnd = addPeriod(now, 'monthly_period').getTime() / 1000;
    expect(Number(preview.body.effective_at_unix)).toBeCloseTo(periodEnd, -1);
  });

  it('refuses what cannot be changed, in the API’s error shape', async () => {
    const free = await signUpWithApiKey(t.app);
    const res = await call(free, '/v1/billing/preview-subscription-change', {
      subscription_type: 'pro',
      billing_period: 'monthly_period',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.detail).toMatchObject({ status: expect.any(String), message: expect.any(String) });

    const creator = await subscribeCreator();
    const same = await call(creator, '/v1/billing/preview-subscription-change', {
      subscription_type: 'creator',
      billing_period: 'monthly_period',
    });
    expect(same.status).toBe(409);
    expect(same.body.detail?.message).toBe('You are already on this plan: nothing to change.');

    const bad = await call(creator, '/v1/billing/preview-subscription-change', {
      subscription_type: 'gold',
      billing_period: 'monthly_period',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail?.status).toBe('invalid_request');
  });
});
