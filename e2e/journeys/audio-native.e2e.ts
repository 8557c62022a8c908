import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { accessTokenOf, signUpInBrowser } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';
import { expectNoOverflow } from '../support/layout';

afterAll(closeBrowser);

const artifacts = path.resolve(import.meta.dirname, '..', 'artifacts');
const PASSWORD = 'Correct-horse-battery-9!';
const SARAH = 'pMsXgVXv3BLzUgSXRplE';
/** flite: the cheapest engine, so the conversion takes a second or two. */
const FLITE = 'parla_english_v1';
const ARTICLE =
  'The moon pulls the sea a little every hour. Twice a day the water rises along the shore, and twice a day it falls again.';

/*
 * Audio Native end to end (issue 30 "Done when"): a player made over the API and converted by Studio's job;
 * a page on ANOTHER local origin (a second http server on 127.0.0.1) embeds the html_snippet; the player
 * renders in its shadow root, plays the article (a cross-origin, CORS-mode audio request) and reports the
 * play; the analytics page counts it; the pages fit 390 px in light and dark.
 */
describe('Audio Native', () => {
  test('a page on another origin embeds the player, plays it, and the analytics page counts the play', async ({
    page,
  }) => {
    page.setDefaultTimeout(30_000);
    await signUpInBrowser(page, `e2e-audio-native-${Date.now()}@example.test`, PASSWORD);
    const headers = { authorization: `Bearer ${await accessTokenOf(page)}` };
    const created = await page.request.post('/v1/audio-native', {
      headers,
      multipart: {
        name: 'Tides',
        title: 'Why the tide turns',
        author: 'A. Writer',
        voice_id: SARAH,
        model_id: FLITE,
        auto_convert: 'true',
        file: { name: 'tides.txt', mimeType: 'text/plain', buffer: Buffer.from(ARTICLE) },
      },
    });
    expect(created.status(), await created.text()).toBe(200);
    const { project_id: projectId, html_snippet: snippet } = (await created.json()) as {
      project_id: string;
      html_snippet: string;
    };
    await expect
      .poll(
        async () => {
          const settings = await page.request.get(`/v1/audio-native/${projectId}/settings`, { headers });
          return ((await settings.json()) as { settings?: { status?: string } }).settings?.status;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe('ready');

    const host = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html><head><title>A blog</title></head><body><h1>A blog post</h1>${snippet}<p>${ARTICLE}</p></body></html>`,
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/posts/tides`;
    // The listener's browser: its own context with no extra request headers, as a visitor's browser sends
    // (the journeys' per-context x-forwarded-for header would make the player's fetch a preflighted one).
    const visitor = await page
      .context()
      .browser()
      ?.newContext({ viewport: { width: 1280, height: 720 } });
    if (!visitor) throw new Error('no browser');
    try {
      const listener = await visitor.newPage();
      listener.setDefaultTimeout(30_000);
      await listener.goto(hostUrl);
      const player = listener.locator('.parla-audio-native');
      await expect.poll(() => player.getAttribute('data-loaded')).toBe('true');
      expect(await player.getByText('Why the tide turns').isVisible()).toBe(true);
      // Keyboard: the play button takes focus and Enter plays; it plays: the button turns into Pause.
      await player.getByRole('button', { name: 'Play', exact: true }).focus();
      await listener.keyboard.press('Enter');
      await player.getByRole('button', { name: 'Pause', exact: true }).waitFor();
      await expect
        .poll(() =>
          listener.evaluate(() => document.querySelector('.parla-audio-native')?.getAttribute('data-ready')),
        )
        .toBe('true');
      await listener.waitForTimeout(1500);
      await player.getByRole('button', { name: 'Pause', exact: true }).click();
      // The media element's pause event (a queued task, after the click returns) turns the button back
      // into Play and saves the position in the same handler.
      await player.getByRole('button', { name: 'Play', exact: true }).waitFor();
      // Resume: the position is kept in the host page's localStorage for this project.
      const saved = await listener.evaluate((id) => localStorage.getItem(`parla-an:${id}`), projectId);
      expect((JSON.parse(saved ?? '{}') as { p?: number }).p).toBeGreaterThan(0.5);
      fs.mkdirSync(artifacts, { recursive: true });
      await listener.screenshot({ path: path.join(artifacts, 'audio-native-host-page.png') });
    } finally {
      await visitor.close();
      host.close();
    }

    // The analytics page (Parla's own origin) counts the load and the play.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/app/audio-native/${projectId}/analytics`);
    const plays = page.locator('dl > div', { has: page.locator('dt', { hasText: /^Plays$/ }) }).locator('dd');
    await expect.poll(() => plays.textContent(), { timeout: 15_000 }).toBe('1');
    await page.getByRole('img', { name: /1 plays over 1 days/ }).waitFor();
    await expectNoOverflow(page, 'analytics 390 light');
    fs.mkdirSync(artifacts, { recursive: true });
    await page.screenshot({
      path: path.join(artifacts, 'audio-native-analytics-390-light.png'),
      fullPage: true,
    });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`/app/audio-native/${projectId}/settings`);
    await page.getByRole('form', { name: 'Player settings' }).waitFor();
    await page.locator('.parla-audio-native[data-ready="true"]').waitFor();
    await expectNoOverflow(page, 'settings 390 dark');
    await page.screenshot({
      path: path.join(artifacts, 'audio-native-settings-390-dark.png'),
      fullPage: true,
    });
    await page.goto('/app/audio-native');
    await page.getByRole('heading', { name: 'Tides' }).waitFor();
    await expectNoOverflow(page, 'list 390 dark');
    await page.screenshot({ path: path.join(artifacts, 'audio-native-list-390-dark.png'), fullPage: true });
  }, 180_000);
});
