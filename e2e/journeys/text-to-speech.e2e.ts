import fs from 'node:fs';
import { afterAll, describe, expect } from 'vitest';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

/** The bottom player's audio element: where the page really plays (history/voices §4). */
const audioState = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const audio = document.querySelector('audio');
    return { currentTime: audio?.currentTime ?? 0, paused: audio?.paused ?? true };
  });

describe('text to speech', () => {
  test('sign in → type text → generate → the player plays → download the file', async ({ page }) => {
    const email = `e2e-tts-${Date.now()}@example.test`;
    const password = 'speech-pass-1!';
    expect((await page.request.post('/v1/auth/sign-up', { data: { email, password } })).status()).toBe(201);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('xi:has-session', '1'));

    await page.goto('/app/speech-synthesis/text-to-speech');
    await page.getByRole('heading', { level: 1, name: 'Text to speech' }).waitFor();
    const text =
      'Welcome to Parla. This sentence was typed in a browser and spoken by an engine on this machine.';
    await page.getByLabel('Text').fill(text);
    await page.getByText(`${text.length} / 10,000 characters`).waitFor();

    // A voice from the picker's dialog, found by searching.
    await page.getByRole('button', { name: /^Voice/ }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a voice' });
    await picker.getByLabel('Search voices').fill('Kevin');
    await picker.getByRole('button', { name: 'Use Kevin' }).click();
    await expect.poll(() => picker.isVisible()).toBe(false);

    await page.getByRole('button', { name: 'Generate speech' }).click();
    const bar = page.getByRole('region', { name: 'Audio player' });
    await bar.waitFor();
    // The player plays: its time advances.
    await expect
      .poll(async () => (await audioState(page)).currentTime, { timeout: 20_000 })
      .toBeGreaterThan(0.5);
    const before = (await audioState(page)).currentTime;
    await expect
      .poll(async () => (await audioState(page)).currentTime, { timeout: 10_000 })
      .toBeGreaterThan(before);

    // Past 3 s of playback the thumbs appear (history/voices §4); thumbs down opens the dialog.
    await bar.getByRole('button', { name: 'Bad audio' }).click({ timeout: 20_000 });
    const feedback = page.getByRole('dialog', { name: 'What went wrong?' });
    await feedback.getByRole('checkbox', { name: 'Glitches' }).check();
    await feedback.getByLabel('Tell us more (optional)').fill('A click between the two sentences.');
    await feedback.getByRole('button', { name: 'Send feedback' }).click();
    // .first(): while it is announced, the toast's text is also in Radix's live region ("Notification …").
    await page.getByText('Your feedback has been submitted, thank you.').first().waitFor();
    await expect
      .poll(() => bar.getByRole('button', { name: 'Bad audio' }).getAttribute('aria-pressed'))
      .toBe('true');

    // Once kept, the generation shows among the recent ones and downloads as an mp3.
    const recent = page.getByRole('region', { name: 'Recent generations' });
    await recent.getByText(text).waitFor({ timeout: 30_000 });
    const downloading = page.waitForEvent('download');
    await recent
      .getByRole('button', { name: /^Download/ })
      .first()
      .click();
    const download = await downloading;
    // history/voices §3 naming: brand, date, voice, mode (pre: premade), settings, model.
    expect(download.suggestedFilename()).toMatch(/^Parla_\d{4}-\d\d-\d\dT\d\d_\d\d_\d\d_Kevin_pre_.*\.mp3$/);
    const file = await download.path();
    const bytes = fs.readFileSync(file);
    expect(bytes.length).toBeGreaterThan(10_000);
    // An MPEG audio frame or an ID3 tag at the start.
    expect(bytes[0] === 0xff || bytes.subarray(0, 3).toString() === 'ID3').toBe(true);
  });
});
