import { afterAll, describe, expect } from 'vitest';
import { accessTokenOf } from '../support/accounts';
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

describe('the models page (issue 18 item 4, issue 27)', () => {
  test('lists every speech model and every model file set with its licence, the public ids with what they stand for, and links the notices', async ({
    page,
  }) => {
    const email = `e2e-models-${Date.now()}@example.test`;
    expect(
      (await page.request.post('/v1/auth/sign-up', { data: { email, password: 'models-pass-1!' } })).status(),
    ).toBe(201);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('xi:has-session', '1'));
    const headers = { authorization: `Bearer ${await accessTokenOf(page)}` };
    // What this server has: its speech models (public ids among them, as aliases) and its model store.
    const models = (await (await page.request.get('/v1/models', { headers })).json()) as {
      model_id: string;
      name: string;
      alias_of: string | null;
    }[];
    const store = (await (await page.request.get('/v1/model-store')).json()) as {
      models: { id: string; name: string; available: boolean; licence: { spdx: string } }[];
    };
    const own = models.filter((m) => !m.alias_of);
    expect(own.map((m) => m.model_id)).toEqual(
      expect.arrayContaining(['parla_neural_v1', 'parla_neural_fast_v1']),
    );
    expect(store.models.map((m) => m.id)).toEqual(expect.arrayContaining(['kokoro-82m', 'piper-joe']));

    // From the text-to-speech page's model field, as a user finds it.
    await page.goto('/app/speech-synthesis/text-to-speech');
    await page.getByRole('link', { name: 'About the models' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'About the models' }).waitFor();

    const speech = page.getByRole('region', { name: 'Models', exact: true });
    for (const model of own) {
      const card = speech.getByRole('region', { name: model.name, exact: true });
      await card.waitFor();
      expect(await card.textContent()).toContain(model.model_id);
      expect(await card.getByText(/^Licence: .+/).textContent()).toMatch(/^Licence: \S/);
    }
    const aliases = page.getByRole('region', { name: 'Public model ids' });
    for (const alias of models.filter((m) => m.alias_of)) {
      const row = aliases
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: alias.model_id, exact: true }) });
      const standsFor = own.find((m) => m.model_id === alias.alias_of)?.name;
      expect(await row.getByRole('cell').nth(1).textContent()).toContain(standsFor);
    }
    expect(
      await aliases.getByRole('row').filter({ hasText: 'eleven_multilingual_v2' }).textContent(),
    ).toContain('Parla Neural v1');

    const files = page.getByRole('region', { name: 'Model files and their licences' });
    for (const model of store.models) {
      const card = files.getByRole('region', { name: model.name, exact: true });
      await card.waitFor({ timeout: 15_000 });
      await card.getByText(model.available ? 'Available' : 'Unavailable', { exact: true }).waitFor();
      const licence = card.getByRole('definition').first();
      expect(await licence.textContent()).toBe(model.licence.spdx);
    }

    // The third-party notices carry the same model files with their licences; the link lands on them
    // (past some 250 npm packages).
    await files.getByRole('link', { name: 'third-party notices’ model files' }).click();
    const heading = page.getByRole('heading', { level: 2, name: 'Model files' });
    await heading.waitFor();
    expect(new URL(page.url()).pathname).toBe('/licenses');
    await expect
      .poll(() => heading.evaluate((h) => Math.round(h.getBoundingClientRect().top)))
      .toBeLessThan(100);
    for (const model of store.models)
      await page.getByRole('heading', { level: 3, name: model.name, exact: true }).waitFor();
  });
});
