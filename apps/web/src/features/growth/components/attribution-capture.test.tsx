import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { AuthProvider } from '../../../lib/auth/auth-provider';
import { createQueryClient } from '../../../lib/query-client';
import { apiError, json } from '../../../test/billing-fixture';
import { makeUser } from '../../../test/user-fixture';
import { ToastProvider } from '../../../ui/toast-provider';
import { referralCookieName } from '../referral-record';
import { AttributionCapture } from './attribution-capture';

/** Plants a cookie the way a page script would. */
function plantCookie(text: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API, and the app reads cookies set this way.
  document.cookie = text;
}

/** Stubs the API: `GET /v1/user` when signed in, and the visit call answered by `visit`. */
function stubApi(visit: () => Response, signedIn = false) {
  if (signedIn) setAccessToken('t1');
  const visits: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      if (key === 'GET /v1/user' && signedIn) return json(makeUser({ email: 'ada@example.test' }));
      if (key === 'POST /v1/google-ads-visit') {
        visits.push(JSON.parse(String(init?.body)));
        return visit();
      }
      return apiError(401, 'unauthorized');
    }),
  );
  return visits;
}

/** The capture as the shell runs it, at a landing address (the rest of the shell is not under test). */
function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '*', element: <AttributionCapture /> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider position="bottom-right">
        <AuthProvider onSignedOut={() => undefined}>
          <RouterProvider router={router} />
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

const hasReferralCookie = () => document.cookie.includes(`${referralCookieName}=`);

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setAccessToken(null);
  plantCookie(`${referralCookieName}=; max-age=0; path=/`);
});

describe('the landing address (accounts §3, §7, §9)', () => {
  it('keeps a referral link’s code as the referral record', () => {
    stubApi(() => json({ status: 'ok' }));
    vi.useFakeTimers();
    renderAt('/?via=friend01');
    expect(hasReferralCookie()).toBe(true);
    act(() => vi.advanceTimersByTime(60_000));
    expect(hasReferralCookie()).toBe(true);
  });

  it('removes the affiliate cookies 2 seconds after a paid-ads visit', () => {
    stubApi(() => json({ status: 'ok' }));
    vi.useFakeTimers();
    renderAt('/?via=friend01&gclid=g1');
    expect(hasReferralCookie()).toBe(true);
    act(() => vi.advanceTimersByTime(1999));
    expect(hasReferralCookie()).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(hasReferralCookie()).toBe(false);
  });

  it('reports a signed-out paid-ads visit with its parameters', async () => {
    // Time runs, and the cookie removal it schedules ends with the test.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const visits = stubApi(() => json({ status: 'ok' }));
    renderAt('/app/sign-up?utm_source=google&utm_medium=cpc&utm_campaign=spring');
    // Once the sign-in state is known (a sign-out applies after 1 second, accounts §4).
    await waitFor(() => expect(visits).toHaveLength(1), { timeout: 3000 });
    expect(visits[0]).toEqual({
      event_type: 'visit',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
    });
  });

  it('sends the address of a signed-in visitor', async () => {
    // Time runs, and the cookie removal it schedules ends with the test.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const visits = stubApi(() => json({ status: 'ok' }), true);
    renderAt('/?gclid=g2');
    await waitFor(() => expect(visits).toHaveLength(1));
    expect(visits[0]).toEqual({ event_type: 'visit', gclid: 'g2', email: 'ada@example.test' });
  });

  it('only logs a non-200 answer, never shows it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // Time runs, and the cookie removal it schedules ends with the test.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const visits = stubApi(() => apiError(500, 'internal_error', 'Something broke'));
    renderAt('/?gclid=g3');
    await waitFor(
      () => expect(warn).toHaveBeenCalledWith('The paid-ads visit was not recorded.', expect.anything()),
      { timeout: 3000 },
    );
    expect(visits).toHaveLength(1);
    expect(screen.queryByText(/Something broke|Something went wrong/)).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('reports nothing for an ordinary visit', async () => {
    const visits = stubApi(() => json({ status: 'ok' }));
    renderAt('/?via=friend01');
    // Past the moment the signed-out state applies (1 second), still nothing.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(visits).toEqual([]);
    expect(hasReferralCookie()).toBe(true);
  });
});
