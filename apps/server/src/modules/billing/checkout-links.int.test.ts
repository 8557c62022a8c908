import { TEST_CARDS } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../../test/factories';
import { sessionCalls } from '../../test/session-calls';
import { createTestApp, type TestApp } from '../../test/test-app';

// PUBLIC_URL names another host than the one the browser is on (issue 18: a user on 127.0.0.1 paid and
// landed on localhost's sign-in page): every page the browser goes to must stay on the browser's host.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'http://parla.test:8080' } });
});
afterAll(() => t.close());

const { call } = sessionCalls(() => t.app);

async function pay(sessionId: string) {
  const res = await t.app.inject({
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
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

describe('the built-in checkout sends the browser along same-origin paths', () => {
  it('answers the hosted checkout, its way back and its success page as paths, not on PUBLIC_URL', async () => {
    const account = await signUpWithApiKey(t.app);
    const opened = await call(account, '/v1/billing/create-checkout-session', {
      subscription_type: 'creator',
      billing_period: 'monthly_period',
      currency: 'usd',
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const url = String(opened.body.url);
    expect(url).toMatch(/^\/billing\/checkout\/\w+$/);
    const sessionId = url.split('/').at(-1) ?? '';

    const page = await t.app.inject({ method: 'GET', url: `/v1/billing/sessions/${sessionId}` });
    expect(page.json()).toMatchObject({ kind: 'checkout', return_url: '/pricing' });

    expect(await pay(sessionId)).toEqual({
      status: 200,
      body: { status: 'succeeded', redirect_url: '/app/subscription?checkout=success' },
    });
  });

  it('keeps the card, portal and payouts pages on the browser’s host too', async () => {
    const account = await signUpWithApiKey(t.app);
    const opened = await call(account, '/v1/billing/create-checkout-session', {
      subscription_type: 'creator',
      billing_period: 'monthly_period',
      currency: 'usd',
    });
    expect((await pay(String(opened.body.url).split('/').at(-1) ?? '')).status).toBe(200);

    const card = await call(account, '/v1/billing/create-update-payment-methods-session', {});
    expect(card.body.url).toMatch(/^\/billing\/payment-method\/\w+$/);
    const cardPage = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/sessions/${String(card.body.url).split('/').at(-1)}`,
    });
    expect(cardPage.json()).toMatchObject({ return_url: '/app/subscription' });

    const portal = await call(account, '/v1/billing/create-portal-session', {});
    expect(portal.body.url).toMatch(/^\/billing\/portal\/\w+$/);

    const connect = await call(account, '/v1/billing/create-connect-account', {
      relative_redirect_path: '/app/payouts',
    });
    expect(connect.status, JSON.stringify(connect.body)).toBe(200);
    const connectPage = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/sessions/${String(connect.body.url).split('/').at(-1)}`,
    });
    expect(connectPage.json()).toMatchObject({ kind: 'connect', return_url: '/app/payouts' });
  });
});
