import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { signUpInBrowser } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';
import { expectNoOverflow } from '../support/layout';

afterAll(closeBrowser);

const artifacts = path.resolve(import.meta.dirname, '..', 'artifacts');

describe('the Conversational AI settings page', () => {
  test('shows the overview and the workspace settings, saves them, and fits a phone in light and dark', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signUpInBrowser(page, `e2e-convai-settings-${Date.now()}@example.test`, 'Correct-horse-battery-9!');
    await page.goto('/app/conversational-ai/settings');
    await page.getByText(/No conversations in the last 14 days/).waitFor();
    await expect.poll(() => page.getByTestId('live-count').textContent()).toBe('0');
    // A host that cannot be found is refused by the server, shown in the form.
    await page.getByLabel('Webhook URL').fill('https://no-such-host.invalid/start');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').filter({ hasText: 'could not be found' }).waitFor();
    await page.getByLabel('Webhook URL').fill('');
    await page.getByLabel('RAG index retention (days)').fill('20');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').first().waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('RAG index retention (days)').inputValue()).toBe('20');
    fs.mkdirSync(artifacts, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.getByRole('heading', { name: 'Workspace settings' }).waitFor();
        await expectNoOverflow(page, `the settings page at ${width} px, ${scheme}`);
        await page.screenshot({
          path: path.join(artifacts, `convai-settings-${width}-${scheme}.png`),
          fullPage: true,
        });
      }
    }
  });
});
