import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('/app/affiliates', () => {
  it('shows the referral link with a copy button, the accounts referred and how it works here', async () => {
    setAccessToken('t1');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/v1/user') return json(makeUser());
        if (url === '/v1/user/referral-link')
          return json({ referral_link: 'https://parla.test/?via=ab12cd34ef' });
        if (url === '/v1/user/referrals') return json({ count: 3 });
        return apiError(404, 'not_found');
      }),
    );
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderApp('/app/affiliates');
    const link = (await screen.findByLabelText(
      'Your referral link',
      {},
      { timeout: 5000 },
    )) as HTMLInputElement;
    expect(link.value).toBe('https://parla.test/?via=ab12cd34ef');
    expect(await screen.findByText('3')).toBeTruthy();
    expect(screen.getByText(/accounts have signed up through your link/)).toBeTruthy();
    expect(screen.getByText(/pays no commission, credits or payouts/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('https://parla.test/?via=ab12cd34ef'));
    expect(await screen.findByText('Link copied to clipboard')).toBeTruthy();
  });
});
