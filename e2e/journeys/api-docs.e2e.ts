import { afterAll, describe, expect } from 'vitest';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

describe('the API reference', () => {
  test('renders /docs from /openapi.json with no CSP violation or page error', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto('/docs');
    await page.getByRole('heading', { name: /Parla API/ }).waitFor({ timeout: 20_000 });
    await page.getByText('/health').first().waitFor();
    expect(problems).toEqual([]);
  });
});
