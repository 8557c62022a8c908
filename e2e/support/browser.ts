import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { test as base, inject } from 'vitest';

/** Debian's Chromium with the flags this machine needs (ARCHITECTURE.md "Browser tests here"). */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const artifacts = path.resolve(import.meta.dirname, '..', 'artifacts');

let clients = 0;
/**
 * Each browser context is its own client address (the e2e server trusts its loopback proxy header), as
 * separate people are: the per-address limits (sign-up: 10 an hour) count each journey's visitor apart.
 */
export function clientHeaders(): Record<string, string> {
  clients += 1;
  return {
    'x-forwarded-for': `10.${process.pid % 250}.${Math.floor(clients / 250) % 250}.${(clients % 250) + 1}`,
  };
}

let browser: Browser | undefined;
async function getBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  return browser;
}

/** Closes the shared browser; call from afterAll in each journey file. */
export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

/**
 * A journey test: `page` is a fresh browser context (its own storage) on the running app. A failing
 * test leaves a full-page screenshot in e2e/artifacts/.
 */
export const test = base.extend<{ page: Page; secondPage: Page; baseUrl: string }>({
  baseUrl: inject('baseUrl'),
  /** A second person's browser (its own context and storage), for journeys between two users. */
  secondPage: async ({ task, baseUrl }, use) => {
    const context = await (await getBrowser()).newContext({
      baseURL: baseUrl,
      extraHTTPHeaders: clientHeaders(),
    });
    const page = await context.newPage();
    await use(page);
    if (task.result?.state === 'fail') {
      fs.mkdirSync(artifacts, { recursive: true });
      const name = task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      await page
        .screenshot({ path: path.join(artifacts, `${name}.second.png`), fullPage: true })
        .catch(() => {});
    }
    await context.close();
  },
  page: async ({ task, baseUrl }, use) => {
    const context = await (await getBrowser()).newContext({
      baseURL: baseUrl,
      extraHTTPHeaders: clientHeaders(),
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await use(page);
    if (task.result?.state === 'fail') {
      fs.mkdirSync(artifacts, { recursive: true });
      const name = task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true }).catch(() => {});
      if (errors.length) fs.writeFileSync(path.join(artifacts, `${name}.errors.txt`), errors.join('\n'));
    }
    await context.close();
  },
});
