import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { accessTokenOf, signUpInBrowser } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';
import { expectNoOverflow } from '../support/layout';

afterAll(closeBrowser);

const artifacts = path.resolve(import.meta.dirname, '..', 'artifacts');
const PASSWORD = 'Correct-horse-battery-9!';

describe('agent testing page', () => {
  test('a test written on the page runs against an agent; with no language model it fails and says why', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUpInBrowser(page, `e2e-agent-tests-${Date.now()}@example.test`, PASSWORD);
    const token = await accessTokenOf(page);
    const agent = await page.request.post('/v1/convai/agents/create', {
      headers: { authorization: `Bearer ${token}` },
      data: { name: 'Bistro', conversation_config: {} },
    });
    expect(agent.status()).toBe(200);

    await page.goto('/app/conversational-ai/agent-testing');
    await page.getByText('No tests yet').waitFor();
    await page.getByText(/No runs yet/).waitFor();
    fs.mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, 'agent-testing-empty-390.png'), fullPage: true });

    await page.getByRole('button', { name: 'Create your first test' }).click();
    const dialog = page.getByRole('dialog', { name: 'New test' });
    await dialog.getByLabel('Test name').fill('Books a table');
    await dialog.getByLabel('Turn 1 message').fill('A table for four on Sunday, please.');
    await dialog.getByLabel('Success condition').fill('The agent confirms a table for four on Sunday.');
    await page.screenshot({ path: path.join(artifacts, 'agent-testing-editor-390.png') });
    await dialog.getByRole('button', { name: 'Create test' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const tests = page.getByRole('list', { name: 'Tests' });
    await tests.getByText('Books a table').waitFor();

    await page.getByRole('checkbox', { name: 'Select Books a table' }).check();
    await page.getByRole('button', { name: 'Run 1 test' }).click();
    const runs = page.getByRole('list', { name: 'Runs' });
    await runs.getByText('Failed', { exact: true }).waitFor({ timeout: 30_000 });
    await runs.getByText('Books a table', { exact: true }).click();
    await runs
      .getByText(/knowledge-base mode/)
      .first()
      .waitFor();
    await expectNoOverflow(page, 'the test verdict on a phone');
    await page.screenshot({ path: path.join(artifacts, 'agent-testing-verdict-390.png'), fullPage: true });

    // The same at 1440 px in the dark theme.
    await page.evaluate(() => localStorage.setItem('xi:theme', 'dark'));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await runs.getByText('Books a table', { exact: true }).click();
    await runs
      .getByText(/knowledge-base mode/)
      .first()
      .waitFor();
    await page.screenshot({
      path: path.join(artifacts, 'agent-testing-verdict-1440-dark.png'),
      fullPage: true,
    });
  });
});
