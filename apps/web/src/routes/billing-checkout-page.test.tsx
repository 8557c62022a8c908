import { hostedSessionPaths, TEST_CARDS } from '@parla/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaveAppTo } from '../lib/leave-app';
import { createQueryClient } from '../lib/query-client';
import { createToastStore } from '../lib/toasts/toast-store';
import { apiError, json, makeHostedSession } from '../test/billing-fixture';
import { ToastProvider } from '../ui/toast-provider';
import BillingCheckoutPage from './billing-checkout-page';

vi.mock('../lib/leave-app', () => ({ leaveAppTo: vi.fn() }));

const success = { status: 'succeeded', redirect_url: '/app/subscription?checkout=success' };

/** The session call answers `session`; the card and authenticate calls answer in turn from their lists. */
function stubProvider(answers: {
  session?: () => Response;
  card?: Array<() => Response>;
  authenticate?: Array<() => Response>;
}) {
  const calls: { key: string; body: unknown }[] = [];
  const queues = { card: [...(answers.card ?? [])], authenticate: [...(answers.authenticate ?? [])] };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (key === 'GET /v1/billing/sessions/s1')
        return (answers.session ?? (() => json(makeHostedSession())))();
      if (key === 'POST /v1/billing/sessions/s1/card')
        return queues.card.shift()?.() ?? apiError(500, 'internal_error');
      if (key === 'POST /v1/billing/sessions/s1/authenticate') {
        return queues.authenticate.shift()?.() ?? apiError(500, 'internal_error');
      }
      return apiError(404, 'not_found');
    }),
  );
  return calls;
}

function renderCheckout() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider position="bottom-right" store={createToastStore()}>
        <MemoryRouter initialEntries={['/billing/checkout/s1']}>
          <Routes>
            <Route path={hostedSessionPaths.checkout} element={<BillingCheckoutPage />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

async function payWith(cardNumber: string) {
  const form = await screen.findByRole('form', { name: 'Card details' });
  fireEvent.change(within(form).getByLabelText('Card number'), { target: { value: cardNumber } });
  fireEvent.change(within(form).getByLabelText('Expiry (MM/YY)'), { target: { value: '12/40' } });
  fireEvent.change(within(form).getByLabelText('CVC'), { target: { value: '123' } });
  fireEvent.change(within(form).getByLabelText('Name on card'), { target: { value: 'Ada Lovelace' } });
  fireEvent.click(within(form).getByRole('button', { name: /^Pay/ }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.mocked(leaveAppTo).mockReset();
});

describe('/billing/checkout/:session_id (the test-mode provider)', () => {
  it('shows the order summary and the test cards, and checks the form before sending it', async () => {
    const calls = stubProvider({});
    renderCheckout();
    const summary = await screen.findByRole('region', { name: 'Order summary' });
    expect(within(summary).getByText('Creator · Monthly')).toBeTruthy();
    expect(within(summary).getByText('Due today').nextElementSibling?.textContent).toBe('$22');
    const hints = screen.getByRole('complementary', { name: 'Test cards' });
    expect(within(hints).getByText('4242 4242 4242 4242')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay $22' }));
    expect(screen.getByText('Enter the card number.')).toBeTruthy();
    expect(screen.getByText('Enter the expiry date as MM/YY.')).toBeTruthy();
    expect(calls.some((c) => c.key.startsWith('POST'))).toBe(false);
    fireEvent.click(within(hints).getByRole('button', { name: 'Use 4000 0000 0000 0002' }));
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4000 0000 0000 0002');
  });

  it('a declined card shows the provider’s message and lets the user try another card', async () => {
    const calls = stubProvider({
      card: [() => apiError(402, 'card_declined', 'Your card was declined.'), () => json(success)],
    });
    renderCheckout();
    await payWith(TEST_CARDS.declined);
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    expect(leaveAppTo).not.toHaveBeenCalled();
    await payWith(TEST_CARDS.succeeds);
    await waitFor(() => expect(leaveAppTo).toHaveBeenCalledWith('/app/subscription?checkout=success'));
    expect(calls.filter((c) => c.key === 'POST /v1/billing/sessions/s1/card').map((c) => c.body)).toEqual([
      {
        card_number: TEST_CARDS.declined,
        exp_month: 12,
        exp_year: 2040,
        cvc: '123',
        cardholder_name: 'Ada Lovelace',
      },
      {
        card_number: TEST_CARDS.succeeds,
        exp_month: 12,
        exp_year: 2040,
        cvc: '123',
        cardholder_name: 'Ada Lovelace',
      },
    ]);
    expect(screen.getByRole('status').textContent).toMatch(/Taking you back to Parla/);
  });

  it('requires_action asks to authenticate; completing it pays and leaves for the redirect', async () => {
    const calls = stubProvider({
      card: [() => json({ status: 'requires_action', redirect_url: null })],
      authenticate: [() => json(success)],
    });
    renderCheckout();
    await payWith(TEST_CARDS.requiresAuthentication);
    const step = await screen.findByRole('region', { name: 'Authenticate this payment' });
    expect(screen.queryByRole('form', { name: 'Card details' })).toBeNull();
    fireEvent.click(within(step).getByRole('button', { name: 'Complete authentication' }));
    await waitFor(() => expect(leaveAppTo).toHaveBeenCalledWith('/app/subscription?checkout=success'));
    expect(calls.find((c) => c.key === 'POST /v1/billing/sessions/s1/authenticate')?.body).toEqual({
      approve: true,
    });
  });

  it('a failed authentication goes back to the card form with the message', async () => {
    const calls = stubProvider({
      card: [() => json({ status: 'requires_action', redirect_url: null })],
      authenticate: [() => apiError(402, 'card_declined', 'The authentication failed.')],
    });
    renderCheckout();
    await payWith(TEST_CARDS.requiresAuthentication);
    fireEvent.click(await screen.findByRole('button', { name: 'Fail authentication' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The authentication failed.');
    expect(screen.getByRole('form', { name: 'Card details' })).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /v1/billing/sessions/s1/authenticate')?.body).toEqual({
      approve: false,
    });
    expect(leaveAppTo).not.toHaveBeenCalled();
  });

  it('a session waiting on authentication opens on that step', async () => {
    stubProvider({ session: () => json(makeHostedSession({ status: 'requires_action' })) });
    renderCheckout();
    expect(await screen.findByRole('button', { name: 'Complete authentication' })).toBeTruthy();
  });

  it.each([
    ['expired', 'This session has expired'],
    ['complete', 'Already done'],
  ] as const)('a %s session says so and links back', async (status, title) => {
    stubProvider({ session: () => json(makeHostedSession({ status })) });
    renderCheckout();
    expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to Parla' }).getAttribute('href')).toBe(
      'http://localhost/app/subscription?checkout=canceled',
    );
    expect(screen.queryByRole('form', { name: 'Card details' })).toBeNull();
  });

  it('an unknown session is "not valid"', async () => {
    stubProvider({ session: () => apiError(404, 'resource_not_found') });
    renderCheckout();
    expect(await screen.findByRole('heading', { name: 'This link is not valid' })).toBeTruthy();
  });
});
