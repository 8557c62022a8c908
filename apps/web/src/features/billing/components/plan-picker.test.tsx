import { planOffers } from '@parla/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { leaveAppTo } from '../../../lib/leave-app';
import { createQueryClient } from '../../../lib/query-client';
import { createToastStore } from '../../../lib/toasts/toast-store';
import {
  apiError,
  cleanUpBillingTest,
  json,
  makeOverview,
  makePaidSubscription,
  makeSubscription,
} from '../../../test/billing-fixture';
import { makeWorkspaceSummary } from '../../../test/workspace-fixture';
import { ToastProvider } from '../../../ui/toast-provider';
import { PlanPicker } from './plan-picker';

vi.mock('../../../lib/leave-app', () => ({ leaveAppTo: vi.fn() }));

type Handler = (body: unknown) => Response;

/** Answers the plans call and the given "METHOD path" handlers; records every call's body. */
function stubApi(handlers: Record<string, Handler> = {}) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body });
      if (key === 'GET /v1/billing/plans') {
        const currency = new URL(url, 'http://x').searchParams.get('currency') === 'eur' ? 'eur' : 'usd';
        return json({ plans: planOffers(currency, { firstMonthOfferEligible: true }) });
      }
      const handler = handlers[key];
      return handler ? handler(body) : apiError(404, 'not_found');
    }),
  );
  return calls;
}

function renderPicker(
  ...[subscription, overview = makeOverview()]: [
    ReturnType<typeof makeSubscription> | null,
    ReturnType<typeof makeOverview>?,
  ]
) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider position="bottom-right" store={createToastStore()}>
        <MemoryRouter>
          <PlanPicker
            subscription={subscription}
            overview={overview}
            signUpHref="/app/sign-up?redirect=%2Fpricing"
          />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

const card = (name: string) => screen.findByRole('region', { name });
const buttonIn = async (name: string) => within(await card(name)).getByRole('button');

beforeEach(() => setAccessToken('t1'));
afterEach(cleanUpBillingTest);

describe('<PlanPicker> plan cards (accounts §4)', () => {
  it('a visitor: every card links to sign-up, "Most popular" on Creator, the currency can switch', async () => {
    stubApi();
    renderPicker(null);
    const creator = await card('Creator');
    expect(within(creator).getByText('Most popular')).toBeTruthy();
    expect(within(creator).getByText('First month 50% off')).toBeTruthy();
    expect(within(creator).getByRole('link', { name: 'Subscribe' }).getAttribute('href')).toBe(
      '/app/sign-up?redirect=%2Fpricing',
    );
    expect(within(await card('Enterprise')).getByRole('link', { name: 'Contact sales' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'EUR €' }));
    expect(await within(await card('Pro')).findByText('€94')).toBeTruthy();
  });

  it('free: "Subscribed" and "Current plan" on Free; Subscribe starts a checkout with the stored promo', async () => {
    localStorage.setItem(
      'xi:promo',
      JSON.stringify({ promocode: 'HELLO', amount_off: 2200, percent_off: null, duration_in_months: 1 }),
    );
    const calls = stubApi({
      'POST /v1/billing/create-checkout-session': () => json({ url: '/billing/checkout/s1' }),
    });
    renderPicker(makeSubscription());
    const free = await card('Free');
    expect(within(free).getByText('Current plan')).toBeTruthy();
    expect((within(free).getByRole('button', { name: 'Subscribed' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(await buttonIn('Creator'));
    await waitFor(() => expect(leaveAppTo).toHaveBeenCalledWith('/billing/checkout/s1'));
    expect(calls.find((c) => c.key === 'POST /v1/billing/create-checkout-session')?.body).toEqual({
      subscription_type: 'creator',
      billing_period: 'monthly_period',
      currency: 'usd',
      promocode: 'HELLO',
    });
  });

  it('a checkout that fails toasts "Failed to create checkout session"', async () => {
    stubApi({ 'POST /v1/billing/create-checkout-session': () => apiError(500, 'internal_error') });
    renderPicker(makeSubscription());
    fireEvent.click(await buttonIn('Starter'));
    expect(await screen.findByText('Failed to create checkout session')).toBeTruthy();
    expect(leaveAppTo).not.toHaveBeenCalled();
  });

  it('a checkout refused for an expired stored coupon shows the §8 message and forgets the coupon', async () => {
    localStorage.setItem(
      'xi:promo',
      JSON.stringify({ promocode: 'OLD', amount_off: 2200, percent_off: null, duration_in_months: 1 }),
    );
    stubApi({ 'POST /v1/billing/create-checkout-session': () => apiError(400, 'coupon_expired') });
    renderPicker(makeSubscription());
    fireEvent.click(await buttonIn('Creator'));
    expect(
      await screen.findByText(
        "This coupon has expired, please use a different one. We've removed it from your browser.",
      ),
    ).toBeTruthy();
    expect(localStorage.getItem('xi:promo')).toBeNull();
    expect(leaveAppTo).not.toHaveBeenCalled();
  });

  it('pro: an upgrade asks first, sends one idempotency key, and a refusal toasts "Failed to upgrade subscription"', async () => {
    const calls = stubApi({
      'POST /v1/billing/preview-subscription-change': () =>
        json({
          change: 'upgrade',
          currency: 'usd',
          new_price_cents: 33000,
          unused_credit_cents: 6650,
          amount_due_cents: 26350,
          effective_at_unix: 1_790_000_000,
        }),
      'POST /v1/billing/change-subscription': () =>
        apiError(409, 'subscription_conflict', 'Pay the open invoice first.'),
    });
    renderPicker(makePaidSubscription('pro'));
    expect((await buttonIn('Pro')).textContent).toBe('Cancel Subscription');
    expect((await buttonIn('Creator')).textContent).toBe('Downgrade');
    fireEvent.click(await buttonIn('Scale'));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Scale?' });
    expect(within(dialog).getByText(/charged to your card now, prorated/)).toBeTruthy();
    // issue 18: the prorated amount is on screen before anything is charged.
    const upgrade = within(dialog).getByRole('button', { name: 'Upgrade' });
    expect(upgrade.getAttribute('aria-disabled')).toBe('true');
    expect((await within(dialog).findByText(/^Charged now:/)).textContent).toBe('Charged now: $263.50');
    expect(within(dialog).getByText('Scale $330, less $66.50 unused on Pro')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /v1/billing/preview-subscription-change')?.body).toEqual({
      subscription_type: 'growing_business',
      billing_period: 'monthly_period',
    });
    expect(upgrade.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(upgrade);
    expect(await screen.findByText('Failed to upgrade subscription')).toBeTruthy();
    expect(screen.getByText('Pay the open invoice first.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const body = calls.find((c) => c.key === 'POST /v1/billing/change-subscription')?.body as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ subscription_type: 'growing_business', billing_period: 'monthly_period' });
    expect(String(body.idempotency_key)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a confirmed upgrade asks for no preview after the change, so nothing answers 409 (issue 26)', async () => {
    let changed = false;
    const calls = stubApi({
      // As the server does: once the plan is Scale, a preview of Scale is "already on this plan".
      'POST /v1/billing/preview-subscription-change': () =>
        changed
          ? apiError(409, 'subscription_conflict', 'You are already on this plan: nothing to change.')
          : json({
              change: 'upgrade',
              currency: 'usd',
              new_price_cents: 33000,
              unused_credit_cents: 6650,
              amount_due_cents: 26350,
              effective_at_unix: 1_790_000_000,
            }),
      'POST /v1/billing/change-subscription': () => {
        changed = true;
        return json({ status: 'ok', change: 'upgrade' });
      },
    });
    renderPicker(makePaidSubscription('pro'));
    fireEvent.click(await buttonIn('Scale'));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Scale?' });
    await within(dialog).findByText(/^Charged now:/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByText('You are now on Scale.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Let any refetch the change set off run before counting.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const previews = calls.filter((c) => c.key === 'POST /v1/billing/preview-subscription-change');
    expect(previews).toHaveLength(1);
  });

  it('a downgrade to a plan with fewer seats than members says so before confirming (issue 18)', async () => {
    stubApi({
      'GET /v1/workspace': () => json(makeWorkspaceSummary({ seats_used: 4, max_seats: 5 })),
    });
    renderPicker(
      makePaidSubscription('pro'),
      makeOverview({
        payment_provider: 'card',
        card_payment_provider: {
          current_period_end: 1_790_000_000,
          schedule: null,
          cancel_at_period_end: false,
        },
      }),
    );
    fireEvent.click(await buttonIn('Creator'));
    const dialog = await screen.findByRole('dialog', { name: 'Downgrade to Creator?' });
    const note = await within(dialog).findByRole('note');
    expect(note.textContent).toContain(
      'This workspace has 4 members and pending invitations, but Creator has 1 seat. Nobody is removed on',
    );
    expect(note.textContent).toContain('no one new can join and pending invitations cannot be accepted');
  });

  it('a downgrade the members fit in says nothing about seats', async () => {
    stubApi({
      'GET /v1/workspace': () => json(makeWorkspaceSummary({ seats_used: 1, max_seats: 5 })),
    });
    renderPicker(makePaidSubscription('pro'));
    fireEvent.click(await buttonIn('Creator'));
    const dialog = await screen.findByRole('dialog', { name: 'Downgrade to Creator?' });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Downgrade' })).toBeTruthy());
    expect(within(dialog).queryByRole('note')).toBeNull();
  });

  it('a cancellation is confirmed in a dialog and calls cancel-subscription', async () => {
    const calls = stubApi({ 'POST /v1/billing/cancel-subscription': () => json({ status: 'ok' }) });
    renderPicker(makePaidSubscription('creator'));
    fireEvent.click(await buttonIn('Creator'));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel Subscription' }));
    expect(await screen.findByText('Your subscription ends at the end of this billing period.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /v1/billing/cancel-subscription')).toBe(true);
  });

  it('a scheduled downgrade: "Will be downgraded" on Pro, and "Cancel Downgrade" calls billing at once', async () => {
    const calls = stubApi({ 'POST /v1/billing/cancel-downgrade': () => json({ status: 'ok' }) });
    renderPicker(
      makePaidSubscription('pro'),
      makeOverview({
        payment_provider: 'card',
        card_payment_provider: {
          current_period_end: 1_790_000_000,
          schedule: {
            metadata: { type: 'downgrade', downgrade_to: 'creator', downgrade_to_period: 'monthly_period' },
          },
          cancel_at_period_end: false,
        },
      }),
    );
    expect(within(await card('Pro')).getByText('Will be downgraded')).toBeTruthy();
    fireEvent.click(within(await card('Creator')).getByRole('button', { name: 'Cancel Downgrade' }));
    expect(await screen.findByText('The downgrade is canceled: you keep Pro.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /v1/billing/cancel-downgrade')).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('past due: upgrades are disabled; the yearly choice is kept and changes the labels', async () => {
    stubApi();
    renderPicker(makePaidSubscription('pro', { status: 'past_due' }));
    expect(((await buttonIn('Scale')) as HTMLButtonElement).disabled).toBe(true);
    expect(((await buttonIn('Creator')) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('radio', { name: /Yearly/ }));
    expect(localStorage.getItem('xi:billing-period')).toBe('yearly');
    expect((await buttonIn('Pro')).textContent).toBe('Upgrade');
    // A paid workspace keeps its currency.
    expect(screen.queryByRole('radio', { name: 'EUR €' })).toBeNull();
  });
});
