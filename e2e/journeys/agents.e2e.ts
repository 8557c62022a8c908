import { afterAll, describe, expect } from 'vitest';
import { accessTokenOf, signUpInBrowser } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

describe('conversational agents (issue 28 item 7)', () => {
  test('a new user creates an agent from a template → edits and saves it → adds a secret and a webhook tool that sends it → a private tool URL is refused under its field → attaches the tool and a document', async ({
    page,
  }) => {
    await signUpInBrowser(page, `e2e-agents-${Date.now()}@example.test`, 'agents-pass-1!');

    await page.goto('/app/conversational-ai');
    await page.getByRole('link', { name: 'Create your first agent' }).click();
    await page.getByRole('radio', { name: /Support agent/ }).check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/app\/conversational-ai\/agents\/[^/?]+$/);
    const editorUrl = page.url();
    await expect.poll(() => page.getByLabel('First message').inputValue()).toMatch(/How can I help/);

    // Only what changed is sent; after a reload the server has it.
    await page.getByLabel('Temperature').fill('0.3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('All changes saved').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Temperature').inputValue()).toBe('0.3');

    // A secret, then a webhook tool whose Authorization header sends it.
    await page.goto('/app/conversational-ai/settings');
    await page.getByRole('button', { name: 'Add your first secret' }).click();
    await page.getByLabel('Name').fill('Orders key');
    await page.getByLabel('Value').fill('sk_e2e_never_shown');
    await page.getByRole('button', { name: 'Add secret' }).click();
    await page.getByRole('list', { name: 'Secrets' }).getByText('Orders key').waitFor();
    expect(await page.content()).not.toContain('sk_e2e_never_shown');

    await page.goto('/app/conversational-ai/tools');
    await page.getByRole('button', { name: 'Create your first tool' }).click();
    const dialog = page.getByRole('dialog', { name: 'New tool' });
    await dialog.getByLabel('Name', { exact: true }).fill('order_status');
    await dialog.getByLabel('Description').fill('Looks up an order by its number.');
    await dialog.getByLabel('URL', { exact: true }).fill('http://10.0.0.1/orders');
    await dialog.getByRole('button', { name: 'Add header' }).click();
    await dialog.getByLabel('Header 1 name').fill('Authorization');
    await dialog.getByLabel('Header 1 source').selectOption('secret');
    await dialog.getByLabel('Header 1 secret').selectOption({ label: 'Orders key' });
    await dialog.getByRole('button', { name: 'Create tool' }).click();
    // The server refuses a private address (SSRF); its message goes under the URL.
    await expect
      .poll(() => dialog.getByLabel('URL', { exact: true }).getAttribute('aria-invalid'))
      .toBe('true');
    await dialog.getByText(/AGENT_TOOL_ALLOW_PRIVATE_URLS/).waitFor();
    // A public address given as a literal: this machine resolves no names.
    await dialog.getByLabel('URL', { exact: true }).fill('https://192.0.43.10/orders');
    await dialog.getByRole('button', { name: 'Create tool' }).click();
    await page.getByRole('list', { name: 'Tools' }).getByText('order_status').waitFor();

    // The tool, attached in the editor, is kept.
    await page.goto(`${editorUrl}?tab=tools`);
    await page.getByRole('checkbox', { name: /order_status/ }).check();
    await page.getByRole('switch', { name: /End call/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('All changes saved').waitFor();
    await page.reload();
    await expect.poll(() => page.getByRole('checkbox', { name: /order_status/ }).isChecked()).toBe(true);
    await expect.poll(() => page.getByRole('switch', { name: /End call/ }).isChecked()).toBe(true);

    // A document of the knowledge base, attached to be searched each turn, is kept.
    const token = await accessTokenOf(page);
    const added = await page.request.post('/v1/convai/knowledge-base/text', {
      headers: { authorization: `Bearer ${token}` },
      data: { name: 'Opening hours', text: 'We are open from nine to five, Monday to Friday.' },
    });
    expect(added.status()).toBe(200);
    await page.goto(`${editorUrl}?tab=knowledge-base`);
    await page.getByRole('button', { name: 'Attach Opening hours' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('All changes saved').waitFor();
    await page.reload();
    await page
      .getByRole('list', { name: 'Attached documents' })
      .getByText('Opening hours', { exact: true })
      .waitFor();
    await expect.poll(() => page.getByLabel('How Opening hours is used').inputValue()).toBe('auto');

    // The list shows it; the widget tab gives its snippet.
    await page.goto('/app/conversational-ai');
    await page.getByRole('link', { name: 'Support agent' }).waitFor();
    await page.goto(`${editorUrl}?tab=widget`);
    await expect
      .poll(() => page.getByTestId('widget-snippet').textContent())
      .toMatch(
        /^<parla-convai agent-id="[^"]+"><\/parla-convai><script src="http:\/\/127\.0\.0\.1:\d+\/convai-widget\.js" async><\/script>$/,
      );
  });
});
