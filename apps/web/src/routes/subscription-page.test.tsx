import { planOffers } from '@parla/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../app/providers';
import { createAppRoutes } from '../app/router';
import { setAccessToken } from '../lib/access-token';
import { leaveAppTo } from '../lib/leave-app';
import { createQueryClient } from '../lib/query-client';
import {
  apiError,
  cleanUpBillingTest,
  json,
  makeOverview,
  makePaidSubscription,
  makeSubscription,
} from '../test/billing-fixture';
import { makeUser } from '../test/user-fixture';

vi.mock('../lib/leave-app', () => ({ leaveAppTo: vi.fn() }));

type Handler = () => Response;

/** A signed-in workspace with `subscription`; other "METHOD path" answers from `handlers`. */
function stubApi(subscription: ReturnType<typeof makeSubscription>, handlers: Record<string, Handler> = {}) {
  setAccessToken('t1');
  const calls: { key: string; body: unknown }[] = [];
  const base: Record<string, Handler> = {
    'GET /v1/user': () => json(makeUser()),
    'GET /v1/user/subscription': () => json(subscription),
    'GET /v1/billing/overview': () =>
      json(makeOverview({ payment_provider: 'card', can_change_payment_method: true })),
    'GET /v1/billing/plans': () => json({ plans: planOffers('usd', { firstMonthOfferEligible: true }) }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const handler = handlers[key] ?? base[key];
      return handler ? handler() : apiError(404, 'not_found');
    }),
  );
  return calls;
}

function renderApp(path: string) {
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
  render(<Providers router={router} queryClient={createQueryClient()} />);
  return router;
}

afterEach(cleanUpBillingTest);

describe('/app/subscription (accounts §3, §4)', () => {
  it('sums up the plan: credits used and remaining, next invoice, and opens the portal', async () => {
    stubApi(
      makePaidSubscription('creator', {
        character_count: 25_000,
        character_limit: 100_000,
        next_invoice: {
          invoice_id: 'in_1',
          amount_due_cents: 2200,
          subtotal_cents: 2200,
          tax_cents: 0,
          discount_percent_off: null,
          discount_amount_off: null,
          discounts: [],
          next_payment_attempt_unix: 1_790_000_000,
          payment_intent_status: null,
          payment_intent_statusses: [],
          status: 'open',
          currency: 'usd',
          description: 'Creator, monthly',
          created_unix: 1_790_000_000,
          paid_unix: null,
        },
      }),
      { 'POST /v1/billing/create-portal-session': () => json({ url: '/billing/portal/p1' }) },
    );
    renderApp('/app/subscription');
    const summary = await screen.findByRole('region', { name: 'Current plan Creator' }, { timeout: 5000 });
    expect(within(summary).getByText('25,000')).toBeTruthy();
    expect(within(summary).getByText('75,000')).toBeTruthy();
    expect(within(summary).getByText('$22')).toBeTruthy();
    expect(within(summary).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(within(summary).getByRole('button', { name: 'Update payment method' })).toBeTruthy();
    fireEvent.click(within(summary).getByRole('button', { name: 'Manage billing' }));
    await waitFor(() => expect(leaveAppTo).toHaveBeenCalledWith('/billing/portal/p1'));
  });

  it('after paying with the first-month offer, shows the discount that applied and what is left (issue 26)', async () => {
    const nextInvoice = {
      invoice_id: 'upcoming',
      amount_due_cents: 2200,
      subtotal_cents: 2200,
      tax_cents: 0,
      discount_percent_off: null,
      discount_amount_off: null,
      discounts: [],
      next_payment_attempt_unix: 1_790_000_000,
      payment_intent_status: null,
      payment_intent_statusses: [],
      status: 'open' as const,
      currency: 'usd' as const,
      description: 'Creator (monthly)',
      created_unix: 1_790_000_000,
      paid_unix: null,
    };
    const applied = {
      description: 'First month 50% off',
      amount_off_cents: 1100,
      invoice_id: 'in_1',
      period_end_unix: 1_790_000_000,
    };
    stubApi(makePaidSubscription('creator', { next_invoice: nextInvoice }), {
      'GET /v1/billing/overview': () => json(makeOverview({ discount: null, applied_discount: applied })),
    });
    renderApp('/app/subscription');
    const summary = await screen.findByRole('region', { name: 'Current plan Creator' }, { timeout: 5000 });
    const fact = (await within(summary).findByText('Discount')).nextElementSibling as HTMLElement;
    await waitFor(() => expect(fact.textContent).toContain('First month 50% off (saved $11 this period)'));
    expect(fact.textContent).toContain('The next invoice is at full price.');
    expect(fact.textContent).not.toContain('None');
    cleanup();

    // A code for several months: this period's share, and the months still to come.
    stubApi(makePaidSubscription('creator', { next_invoice: nextInvoice }), {
      'GET /v1/billing/overview': () =>
        json(
          makeOverview({
            applied_discount: { ...applied, description: 'SPRING: 20% off', amount_off_cents: 440 },
            discount: { code: 'SPRING', percent_off: 20, amount_off: null, months_left: 2 },
          }),
        ),
    });
    renderApp('/app/subscription');
    const again = await screen.findByRole('region', { name: 'Current plan Creator' }, { timeout: 5000 });
    const next = (await within(again).findByText('Discount')).nextElementSibling as HTMLElement;
    await waitFor(() => expect(next.textContent).toContain('SPRING: 20% off (saved $4.40 this period)'));
    expect(next.textContent).toContain('Next invoices: SPRING: 20% off, 2 months left');
  });

  it('a past-due subscription shows the payment problem with the way to pay', async () => {
    stubApi(makePaidSubscription('pro', { status: 'past_due' }));
    renderApp('/app/subscription');
    const banner = await screen.findByText('There is a problem with your payment', {}, { timeout: 5000 });
    expect(banner.closest('[role="alert"]')?.textContent).toMatch(/pay the open invoice/);
  });

  it('runs a ?promocode= link: an invalid code toasts and the link leaves the address bar', async () => {
    const calls = stubApi(makeSubscription(), {
      'POST /v1/billing/validate-promocode': () =>
        json({
          valid: false,
          promocode: 'BAD',
          amount_off: null,
          percent_off: null,
          duration_in_months: null,
        }),
    });
    const router = renderApp('/app/subscription?promocode=BAD');
    expect(await screen.findByText('Coupon code BAD is invalid', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(calls.filter((c) => c.key === 'POST /v1/billing/validate-promocode')).toHaveLength(1);
  });

  it('runs a ?coupon= link: a valid code opens the promo dialog', async () => {
    stubApi(makeSubscription(), {
      'POST /v1/billing/validate-promocode': () =>
        json({ valid: true, promocode: 'PRO99', amount_off: 9900, percent_off: null, duration_in_months: 1 }),
    });
    renderApp('/app/subscription?coupon=PRO99');
    const dialog = await screen.findByRole('dialog', { name: 'A special offer for you' }, { timeout: 5000 });
    expect(within(dialog).getByText(/Get \$99 off Pro for your first month/)).toBeTruthy();
  });
});
