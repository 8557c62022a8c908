import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { openSettingsFromAccountMenu, signOutFromHeader } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

interface OutboxMail {
  subject: string;
  text: string;
  kind: string;
}

/** The newest mail of a kind to an address, read from the local outbox the way a developer would. */
async function waitForMail(page: Page, to: string, kind: string, count = 1): Promise<OutboxMail> {
  let found: OutboxMail[] = [];
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/dev/mailbox?to=${encodeURIComponent(to)}`);
        found = ((await res.json()) as { emails: OutboxMail[] }).emails.filter((mail) => mail.kind === kind);
        return found.length;
      },
      { timeout: 10_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return found[0] as OutboxMail;
}

const linkIn = (text: string) => {
  const link = text.split(/\s+/).find((word) => word.includes('/auth/action?'));
  if (!link) throw new Error(`no account-action link in:\n${text}`);
  return link;
};

describe('accounts', () => {
  test('sign up → verify from the mail → sign out → reset the password from the mail → sign in with it', async ({
    page,
  }) => {
    const email = `e2e-${Date.now()}@example.test`;
    const first = 'first-pass-1!';
    const second = 'second-pass-2?';

    await page.goto('/app/sign-up');
    await page.getByLabel('First name (optional)').fill('Ada');
    await page.getByLabel('Email', { exact: true }).fill(email);
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('abc');
    // The §5 rules tick off live.
    const rules = page.getByRole('list', { name: 'Password requirements' });
    await expect.poll(() => rules.getByText('(met)').count()).toBe(1);
    await password.fill(first);
    await expect.poll(() => rules.getByText('(met)').count()).toBe(4);
    await page.getByLabel('Repeat password').fill('something-else-1!');
    // Fields are checked when they are left (issue 18: validate on blur).
    await page.getByLabel('Repeat password').press('Tab');
    await page.getByText('Your passwords do not match').waitFor();
    await page.getByLabel('Repeat password').fill(first);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    const verification = await waitForMail(page, email, 'verification');
    expect(verification.subject).toBe('Verify your email for Parla');
    await page.goto(linkIn(verification.text));
    const verified = page.getByRole('dialog', { name: 'Email Verification' });
    await verified.getByText(`Your email ${email} has been verified.`).waitFor();
    await verified.getByRole('button', { name: 'Continue to sign in' }).click();
    // Still signed in: the sign-in page sends the new account through the onboarding survey first
    // (accounts §2 onboarding and next), then on to the app.
    await page.getByRole('heading', { name: 'Welcome to Parla' }).waitFor();
    expect(await page.getByLabel('First name').inputValue()).toBe('Ada');
    await page.getByRole('radio', { name: 'Developer' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'You’re all set, Ada' }).waitFor();
    await page.getByRole('list', { name: 'Onboarding checklist' }).waitFor();
    await page.getByRole('link', { name: 'Continue' }).click();
    // On to Home, where sign-in lands (issue 18); the settings are in the account menu.
    await page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), Ada$/ }).waitFor();
    await openSettingsFromAccountMenu(page);
    await page.getByText(`${email} · Free plan`).waitFor();
    expect(await page.getByText('Your email is not verified yet').count()).toBe(0);

    await signOutFromHeader(page);
    await page.waitForURL('**/app/sign-in');
    await page.getByRole('heading', { name: 'Sign in to Parla' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('xi:has-session'))).toBeNull();
    // The sign-out's 1 s delay passes without the page bouncing anywhere.
    await page.waitForTimeout(1500);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/app/sign-in');

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    // The page loads lazily: fill its field, not the sign-in page's one it replaces.
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(`If an account exists for ${email}`).waitFor();

    const reset = await waitForMail(page, email, 'password_reset');
    await page.goto(linkIn(reset.text));
    const dialog = page.getByRole('dialog', { name: 'Please enter your new Password' });
    await dialog.getByText(`For ${email}`).waitFor();
    await dialog.getByLabel('Your new password').fill(second);
    await dialog.getByLabel('Repeat new password').fill(second);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    const changed = page.getByRole('dialog', { name: 'Password has been changed' });
    await changed.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.waitForURL('**/app/sign-in');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(first);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Wrong email or password.').first().waitFor();
    await page.getByLabel('Password').fill(second);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), Ada$/ }).waitFor();

    // A reload keeps the sign-in: the refresh cookie gives the new page its access token.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), Ada$/ }).waitFor();
    await page.getByRole('button', { name: 'Account', exact: true }).waitFor();
  });

  test('an API key is shown once and works in the xi-api-key header', async ({ page, baseUrl }) => {
    const email = `e2e-keys-${Date.now()}@example.test`;
    const response = await page.request.post('/v1/auth/sign-up', {
      data: { email, password: 'key-pass-1!' },
    });
    expect(response.status()).toBe(201);
    // The sign-up set the refresh cookie in this context; the app picks the session up from it.
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('xi:has-session', '1'));
    await page.goto('/app/settings/api-keys');
    await page.getByText('No API keys yet').waitFor();
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create API key' });
    await create.getByLabel('Name').fill('Build server');
    await create.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent()) ?? '';
    expect(key).toMatch(/^sk_[0-9a-f]{48}$/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: `sk_…${key.slice(-4)}` }).waitFor();
    expect(await page.getByText(key).count()).toBe(0);

    const me = await fetch(`${baseUrl}/v1/user`, { headers: { 'xi-api-key': key } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(email);
  });
});
