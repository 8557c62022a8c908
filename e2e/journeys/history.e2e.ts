import fs from 'node:fs';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

/** Speaks `text` on the text-to-speech page and waits until it is kept among the recent generations. */
async function generate(page: Page, text: string): Promise<void> {
  await page.getByLabel('Text').fill(text);
  await page.getByRole('button', { name: 'Generate speech' }).click();
  await page.getByRole('region', { name: 'Recent generations' }).getByText(text).waitFor({ timeout: 60_000 });
}

const audioTime = (page: Page) => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0);

describe('speech history', () => {
  test('two generations → history lists them → search → zip of both → share link plays signed out → video → delete ends the link', async ({
    page,
    baseUrl,
  }) => {
    const email = `e2e-history-${Date.now()}@example.test`;
    const password = 'history-pass-1!';
    expect((await page.request.post('/v1/auth/sign-up', { data: { email, password } })).status()).toBe(201);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('xi:has-session', '1'));

    await page.goto('/app/speech-synthesis/text-to-speech');
    await page.getByRole('heading', { level: 1, name: 'Text to speech' }).waitFor();
    const first = 'The lighthouse keeper climbed the stairs at dusk.';
    const second = 'Fresh bread is sold at the market every morning.';
    await generate(page, first);
    await generate(page, second);

    // The history page lists both, newest first, under today's heading.
    await page.getByRole('link', { name: 'View all history' }).click();
    await page.getByRole('heading', { level: 1, name: 'Text to speech history' }).waitFor();
    const list = page.getByRole('main');
    await list.getByText(first).waitFor();
    await list.getByText(second).waitFor();
    await list.getByText('Today').first().waitFor();

    // Full-text search on the server: a word's beginning finds the one item.
    await page.getByLabel('Search').fill('lightho');
    await expect.poll(() => list.getByText(second).count(), { timeout: 10_000 }).toBe(0);
    await list.getByText(first).waitFor();
    await page.getByLabel('Search').fill('');
    await list.getByText(second).waitFor();

    // Both selected → one zip holding both audio files, named per the spec.
    await page.getByLabel('Select all').check();
    const zipping = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download 2 as zip' }).click();
    const zip = await zipping;
    expect(zip.suggestedFilename()).toMatch(/^Parla_history_.*\.zip$/);
    const files = unzipSync(new Uint8Array(fs.readFileSync(await zip.path())));
    const names = Object.keys(files);
    expect(names).toHaveLength(2);
    for (const name of names) {
      expect(name).toMatch(/^Parla_.*_pre_.*\.mp3$/);
      expect((files[name] as Uint8Array).length).toBeGreaterThan(5_000);
    }
    await page.getByRole('button', { name: 'Clear selection' }).click();

    // Share: with video generation on, the video dialog opens; its link option gives the share link.
    await page.getByRole('button', { name: /^Share “The lighthouse keeper/ }).click();
    const video = page.getByRole('dialog', { name: 'Share as a video' });
    await video.waitFor();
    await video.getByRole('button', { name: 'Share a link instead' }).click();
    const linkDialog = page.getByRole('dialog', { name: 'Share with your community' });
    await linkDialog.waitFor();
    const linkRow = linkDialog.getByLabel('Share link');
    await expect.poll(() => linkRow.getAttribute('title'), { timeout: 10_000 }).toMatch(/\/share\/\w+$/);
    const shareLink = (await linkRow.getAttribute('title')) ?? '';
    expect(shareLink.startsWith(baseUrl)).toBe(true);
    await page.keyboard.press('Escape');

    // A fresh browser (no session) opens the link: the text, the voice and audio that plays.
    const browser = page.context().browser();
    if (!browser) throw new Error('no browser');
    const stranger = await browser.newContext({ baseURL: baseUrl });
    try {
      const visitor = await stranger.newPage();
      await visitor.goto(shareLink);
      await visitor.locator('#main').getByText(first).waitFor(); // the bottom player names it too
      await visitor.getByText(/Shared by/).waitFor();
      await visitor.locator('h1').click(); // a real gesture, so the page may start audio
      await visitor.evaluate(() => document.querySelector('audio')?.play());
      await expect.poll(() => audioTime(visitor), { timeout: 15_000 }).toBeGreaterThan(0.3);

      // Back as the owner: a video of the item, generated and downloaded.
      await page.getByRole('button', { name: /^Share “The lighthouse keeper/ }).click();
      await video.waitFor();
      await video.getByRole('button', { name: 'Generate' }).click();
      await video.getByLabel(/^Share video, Multicolor theme/).waitFor({ timeout: 120_000 });
      const saving = page.waitForEvent('download');
      await video.getByRole('button', { name: 'Download' }).click();
      const mp4 = await saving;
      expect(mp4.suggestedFilename()).toBe('parla-video.mp4');
      const bytes = fs.readFileSync(await mp4.path());
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      expect(bytes.length).toBeGreaterThan(20_000);
      await page.keyboard.press('Escape');

      // Deleting the item (confirmed) removes it and ends its link.
      await page.getByRole('button', { name: /^Delete “The lighthouse keeper/ }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this generation?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => list.getByText(first).count(), { timeout: 10_000 }).toBe(0);
      await visitor.goto(shareLink);
      await visitor.getByRole('heading', { name: 'This share link no longer works' }).waitFor();
      const gone = await visitor.request.get(`/v1/shared-history/${shareLink.split('/').pop()}`);
      expect(gone.status()).toBe(404);
    } finally {
      await stranger.close();
    }
  });
});
