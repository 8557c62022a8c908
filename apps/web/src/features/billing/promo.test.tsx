import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../lib/access-token';
import { HttpError } from '../../lib/http-error';
import { leaveAppTo } from '../../lib/leave-app';
import { createQueryClient } from '../../lib/query-client';
import { createToastStore } from '../../lib/toasts/toast-store';
import {
  apiError,
  cleanUpBillingTest,
  json,
  makePaidSubscription,
  makeSubscription,
} from '../../test/billing-fixture';
import { ToastProvider } from '../../ui/toast-provider';
import { PromoCodeForm } from './components/promo-code-form';
import { PromoOffer } from './components/promo-offer';
import { promoOutcomeOf, readStoredPromo } from './promo';

vi.mock('../../lib/leave-app', () => ({ leaveAppTo: vi.fn() }));

const oldPromo = { promocode: 'OLD', amount_off: 500, percent_off: null, duration_in_months: 1 };
const creatorPromo = { promocode: 'CREATOR22', amount_off: 2200, percent_off: null, duration_in_months: 1 };

/** Answers each "METHOD path" with its handler (fetch rejects for `network`); records the bodies. */
function stubApi(handlers: Record<string, (() => Response) | 'network'>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const handler = handlers[key];
      if (handler === 'network') throw new TypeError('Failed to fetch');
      return handler ? handler() : apiError(404, 'not_found');
    }),
  );
  return calls;
}

function Where() {
  return <p data-testid="path">{useLocation().pathname}</p>;
}

function renderWithApp(children: React.ReactNode, path = '/app/settings') {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider position="bottom-right" store={createToastStore()}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  {children}
                  <Where />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

function redeem(code: string) {
  fireEvent.change(screen.getByLabelText('Code'), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
}

beforeEach(() => setAccessToken('t1'));
afterEach(cleanUpBillingTest);

describe('promoOutcomeOf (accounts §4, §8)', () => {
  const valid = { valid: true, promocode: 'A', amount_off: 500, percent_off: null, duration_in_months: 1 };
  it.each([
    [{ ok: true as const, value: valid }, 'valid'],
    [{ ok: true as const, value: { ...valid, valid: false } }, 'invalid'],
    [
      {
        ok: false as const,
        error: new HttpError({ status: 400, message: 'x', errorType: 'invalid_promocode' }),
      },
      'invalid',
    ],
    [
      {
        ok: false as const,
        error: new HttpError({ status: 400, message: 'x', errorType: 'coupon_expired' }),
      },
      'expired',
    ],
    [
      {
        ok: false as const,
        error: new HttpError({ status: 503, message: 'x', errorType: 'service_unavailable' }),
      },
      'failed',
    ],
    [
      {
        ok: false as const,
        error: new HttpError({ status: 0, message: 'Network error', errorType: 'network_error' }),
      },
      'failed',
    ],
  ])('%o is %s', (answer, kind) => {
    expect(promoOutcomeOf('A', answer).kind).toBe(kind);
  });
});

describe('promo code entry (accounts §4, §8)', () => {
  it('a valid code is stored with its terms and the user goes to the subscription page', async () => {
    const calls = stubApi({
      'POST /v1/billing/validate-promocode': () =>
        json({
          valid: true,
          promocode: 'CREATOR22',
          amount_off: 2200,
          percent_off: null,
          duration_in_months: 1,
        }),
    });
    renderWithApp(<PromoCodeForm currency="usd" />);
    redeem(' CREATOR22 ');
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/app/subscription'));
    expect(calls[0]?.body).toEqual({ promocode: 'CREATOR22' });
    expect(JSON.parse(localStorage.getItem('xi:promo') ?? 'null')).toEqual(creatorPromo);
    expect(await screen.findByText(/\$22 off for your first month/)).toBeTruthy();
  });

  it.each([
    [
      'an invalid code',
      () =>
        json({
          valid: false,
          promocode: 'NOPE',
          amount_off: null,
          percent_off: null,
          duration_in_months: null,
        }),
      'Coupon code NOPE is invalid',
    ],
    [
      'a code the server refuses',
      () => apiError(400, 'invalid_promocode', 'Unknown code'),
      'Coupon code NOPE is invalid',
    ],
    [
      'an expired code',
      () => apiError(400, 'coupon_expired', 'Expired'),
      "This coupon has expired, please use a different one. We've removed it from your browser.",
    ],
    ['a failed validation', () => apiError(500, 'internal_error'), 'Error validating promocode code'],
    ['a network failure', 'network' as const, 'Error validating promocode code'],
  ])('%s: the toast says so and the stored promo is removed', async (_, answer, message) => {
    localStorage.setItem('xi:promo', JSON.stringify(oldPromo));
    stubApi({ 'POST /v1/billing/validate-promocode': answer });
    renderWithApp(<PromoCodeForm currency="usd" />);
    expect(screen.getByText('OLD')).toBeTruthy();
    redeem('NOPE');
    expect(await screen.findByText(message)).toBeTruthy();
    expect(localStorage.getItem('xi:promo')).toBeNull();
    expect(screen.queryByText('OLD')).toBeNull();
    expect(screen.getByTestId('path').textContent).toBe('/app/settings');
  });
});

describe('<PromoOffer> the promo dialog (accounts §4)', () => {
  it('offers the plan of the amount; Dismiss leaves the banner, which opens it again; No thanks forgets it', async () => {
    localStorage.setItem('xi:promo', JSON.stringify(creatorPromo));
    stubApi({});
    renderWithApp(<PromoOffer subscription={makeSubscription()} currency="usd" />);
    const dialog = await screen.findByRole('dialog', { name: 'A special offer for you' });
    expect(within(dialog).getByText(/Get \$22 off Creator for your first month/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(localStorage.getItem('xi:promo-dismissed')).toBe('CREATOR22');
    const banner = screen.getByRole('region', { name: 'Your offer' });
    // Desktop only (accounts §4): hidden below the md breakpoint.
    expect(banner.classList.contains('hidden')).toBe(true);
    expect(banner.classList.contains('md:flex')).toBe(true);
    fireEvent.click(within(banner).getByRole('button', { name: 'View offer' }));
    const again = await screen.findByRole('dialog', { name: 'A special offer for you' });
    fireEvent.click(within(again).getByRole('button', { name: 'No thanks' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(readStoredPromo()).toBeNull();
    expect(screen.queryByRole('region', { name: 'Your offer' })).toBeNull();
  });

  it('Accept on free starts a monthly checkout with the code', async () => {
    localStorage.setItem('xi:promo', JSON.stringify(creatorPromo));
    const calls = stubApi({
      'POST /v1/billing/create-checkout-session': () => json({ url: '/billing/checkout/s9' }),
    });
    renderWithApp(<PromoOffer subscription={makeSubscription()} currency="eur" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(leaveAppTo).toHaveBeenCalledWith('/billing/checkout/s9'));
    expect(calls[0]?.body).toEqual({
      subscription_type: 'creator',
      billing_period: 'monthly_period',
      currency: 'eur',
      promocode: 'CREATOR22',
    });
  });

  it('Accept on a paid plan changes it monthly with the code; a failure is silent', async () => {
    localStorage.setItem('xi:promo', JSON.stringify(creatorPromo));
    const calls = stubApi({
      'POST /v1/billing/change-subscription': () => apiError(409, 'subscription_conflict'),
    });
    renderWithApp(<PromoOffer subscription={makePaidSubscription('starter')} currency="usd" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls[0]?.key).toBe('POST /v1/billing/change-subscription');
    expect(calls[0]?.body).toMatchObject({
      subscription_type: 'creator',
      billing_period: 'monthly_period',
      promocode: 'CREATOR22',
    });
    const body = calls[0]?.body as { idempotency_key?: string } | undefined;
    expect(body?.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText(/Failed/)).toBeNull();
    expect(readStoredPromo()).toEqual(creatorPromo);
  });
});
