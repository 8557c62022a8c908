import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Signs up over the API and lets the web app find the session; answers the access token. */
export async function signUpInBrowser(page: Page, email: string, password: string): Promise<string> {
  expect((await page.request.post('/v1/auth/sign-up', { data: { email, password } })).status()).toBe(201);
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('xi:has-session', '1'));
  return accessTokenOf(page);
}

/** A fresh access token for the page's sign-in (its refresh cookie), naming the workspace it works in now. */
export function accessTokenOf(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const res = await fetch('/v1/auth/refresh', { method: 'POST' });
    return ((await res.json()) as { access_token: string }).access_token;
  });
}

/** A paid plan through the built-in provider's checkout, paid with its test card over the API. */
export async function payForPlan(
  page: Page,
  token: string,
  plan: 'starter' | 'creator' | 'pro' | 'growing_business',
): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  const checkout = await page.request.post('/v1/billing/create-checkout-session', {
    headers,
    data: { subscription_type: plan, billing_period: 'monthly_period', currency: 'usd' },
  });
  expect(checkout.status()).toBe(200);
  const sessionId = /\/billing\/checkout\/([^/?#]+)/.exec(
    ((await checkout.json()) as { url: string }).url,
  )?.[1];
  const paid = await page.request.post(`/v1/billing/sessions/${sessionId}/card`, {
    headers,
    data: {
      card_number: '4242 4242 4242 4242',
      exp_month: 12,
      exp_year: 2034,
      cvc: '123',
      cardholder_name: 'Ada Lovelace',
    },
  });
  expect(await paid.json()).toMatchObject({ status: 'succeeded' });
}

/** Opens the settings as a user does: the account menu at the sidebar's foot, then "Settings". */
export async function openSettingsFromAccountMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
}

/** Signs out as a user does: the account menu (the sidebar's foot in the app), then "Sign out". */
export async function signOutFromHeader(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}
