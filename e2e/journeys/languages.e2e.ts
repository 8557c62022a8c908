import { afterAll, describe, expect } from 'vitest';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

describe('languages that are true (issue 18 item 4)', () => {
  test('German text → the notice → a German voice through the language filter → generate → a history item in that voice', async ({
    page,
  }) => {
    const email = `e2e-languages-${Date.now()}@example.test`;
    const password = 'speech-pass-1!';
    expect((await page.request.post('/v1/auth/sign-up', { data: { email, password } })).status()).toBe(201);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('xi:has-session', '1'));

    await page.goto('/app/speech-synthesis/text-to-speech');
    await page.getByRole('heading', { level: 1, name: 'Text to speech' }).waitFor();
    // An English voice first.
    await page.getByRole('button', { name: /^Voice/ }).click();
    let picker = page.getByRole('dialog', { name: 'Choose a voice' });
    await picker.getByLabel('Search voices').fill('Sarah');
    await picker.getByRole('button', { name: 'Use Sarah' }).click();
    await expect.poll(() => picker.isVisible()).toBe(false);

    const text = 'Das Wetter ist heute schön, und am Nachmittag gehen wir im Park spazieren.';
    await page.getByLabel('Text').fill(text);
    // The detected language does not match the voice's: the page says so and offers German voices.
    const notice = page.getByRole('region', { name: 'Language of the text' });
    await notice.getByText('This text looks German, but Sarah speaks English').waitFor({ timeout: 15_000 });
    expect(await notice.getByRole('button', { name: /^Use / }).count()).toBeGreaterThan(0);

    // Through the picker's language filter.
    await page.getByRole('button', { name: /^Voice/ }).click();
    picker = page.getByRole('dialog', { name: 'Choose a voice' });
    await picker.getByRole('combobox', { name: 'Language' }).selectOption('de');
    const listed = picker.getByRole('list', { name: 'Voices' }).getByRole('listitem');
    await expect.poll(() => listed.count()).toBeGreaterThan(0);
    for (const item of await listed.all()) expect(await item.textContent()).toContain('German');
    // Each voice can be previewed from the list.
    await picker.getByRole('button', { name: 'Play the preview of Anna' }).waitFor();
    await picker.getByRole('button', { name: 'Use Anna' }).click();
    await expect.poll(() => picker.isVisible()).toBe(false);
    await expect.poll(() => notice.isVisible()).toBe(false);

    await page.getByRole('button', { name: 'Generate speech' }).click();
    await page.getByRole('region', { name: 'Audio player' }).waitFor({ timeout: 60_000 });
    // The generation is kept with the German voice.
    const recent = page.getByRole('region', { name: 'Recent generations' });
    const item = recent.getByRole('listitem').filter({ hasText: text });
    await item.waitFor({ timeout: 60_000 });
    expect(await item.textContent()).toContain('Anna');
  }, 180_000);
});
