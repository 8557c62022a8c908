import { afterAll, describe, expect } from 'vitest';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

const theme = (page: import('playwright-core').Page) =>
  page.evaluate(() => ({
    attribute: document.documentElement.dataset.theme,
    dark: document.documentElement.classList.contains('dark'),
    stored: localStorage.getItem('xi:theme'),
  }));

describe('the app shell', () => {
  test('loads the shell, shows live system status and toggles the theme, which survives a reload', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await expect.poll(() => page.title()).toMatch(/Parla/);
    await page.getByRole('main').waitFor();
    // The status card reads /health through the typed client: the real server answers.
    await page
      .getByText(/database/i)
      .first()
      .waitFor();
    await page
      .getByText(/pglite/i)
      .first()
      .waitFor({ timeout: 15_000 });

    expect(await theme(page)).toEqual({ attribute: 'light', dark: false, stored: null });
    // A toggle button named for one state: its pressed state says whether dark is on.
    const toggle = page.getByRole('button', { name: 'Dark theme' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await theme(page)).toEqual({ attribute: 'dark', dark: true, stored: 'dark' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const darkBackground = await page.evaluate(
      () => getComputedStyle(document.documentElement).backgroundColor,
    );

    await page.reload();
    await page.getByRole('main').waitFor();
    expect(await theme(page)).toEqual({ attribute: 'dark', dark: true, stored: 'dark' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');

    // Keyboard: focus the toggle and press Enter to go back to light.
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await theme(page)).toEqual({ attribute: 'light', dark: false, stored: 'light' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).not.toBe(
      darkBackground,
    );
  });

  test('an unknown page shows "Page not found" with a way home, and an unknown API path is a JSON 404', async ({
    page,
    baseUrl,
  }) => {
    await page.goto('/app/no-such-page');
    await page.getByRole('heading', { name: /page not found/i }).waitFor();
    await page.getByRole('link', { name: 'Go home' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');

    const res = await fetch(`${baseUrl}/v1/no-such-route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      detail: { status: 'not_found', message: 'No route matches GET /v1/no-such-route.' },
    });
  });
});
