import { createHmac } from 'node:crypto';
import { afterAll, describe, expect } from 'vitest';
import { openSettingsFromAccountMenu, signOutFromHeader } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

/** RFC 6238 (SHA-1, 30 s, 6 digits): what an authenticator app shows for a base32 secret at a step. */
function totp(secret: string, step: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = (digest.at(-1) ?? 0) & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
const stepNow = () => Math.floor(Date.now() / 30_000);

describe('two-factor authentication', () => {
  test('set up from settings with the shown key, then sign-in asks for the code', async ({ page }) => {
    const email = `e2e-2fa-${Date.now()}@example.test`;
    const password = 'two-factor-1!';
    const signUp = await page.request.post('/v1/auth/sign-up', { data: { email, password } });
    expect(signUp.status()).toBe(201);
    // Onboarding done through the API, so the sign-in below goes straight to the page (accounts §2).
    const survey = await page.request.post('/v1/user/onboarding-survey-complete', {
      headers: {
        authorization: `Bearer ${((await signUp.json()) as { access_token: string }).access_token}`,
      },
      data: { first_name: 'Grace', role: 'developer', timezone: 'UTC' },
    });
    expect(survey.status()).toBe(200);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('xi:has-session', '1'));

    await page.goto('/app/settings?dialog=add-2fa');
    const setup = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
    await setup.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await setup.locator('code').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await setup.getByLabel('Authentication code').fill('000000');
    await setup.getByRole('button', { name: 'Turn on' }).click();
    await setup.getByText('That code is not right.').waitFor();
    const step = stepNow();
    await setup.getByLabel('Authentication code').fill(totp(secret, step));
    await setup.getByRole('button', { name: 'Turn on' }).click();
    const done = page.getByRole('dialog', { name: 'Two-factor authentication is on' });
    const backup = (await done.locator('code').textContent()) ?? '';
    expect(backup).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    await done.getByRole('button', { name: 'Done' }).click();
    await page.getByText('On', { exact: true }).waitFor();

    await signOutFromHeader(page);
    await page.waitForURL('**/app/sign-in');
    // The URL changes before React renders the sign-in page: wait for the page, not the address.
    await page.getByRole('heading', { name: 'Sign in to Parla' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    // The code that turned the factor on was used once already; the next step's code is accepted.
    await page.getByLabel('Authentication code').fill(totp(secret, step + 1));
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Sign-in lands on Home (issue 18); the settings are one step away in the account menu.
    await page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening)/ }).waitFor();
    await openSettingsFromAccountMenu(page);
    await page.getByText('On', { exact: true }).waitFor();
  });
});
