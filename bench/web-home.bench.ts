/**
 * Home's first visit (issue 26 item 7): a new user's first load of `/app/home` in a browser with a cold
 * cache (a fresh Chromium context: no HTTP cache, no memory of the app), through the built server and web
 * app as `npm start` serves them. Printed, as medians and the slowest run over RUNS visits:
 * - the greeting: from the navigation's start to the page's `<h1>` ("Good morning, Ada") in the DOM (seen
 *   within 5 ms): the first meaningful paint; target ≤ 1 s;
 * - the main content: until nothing in `<main>` is still loading (no `aria-busy`), the latest generations
 *   and the credit meter shown;
 * - the requests the visit made (every one, and the API's), and how many asked for `/v1/user` (target 1).
 * Baseline in the same run: the same cold load of a page that waits on no data, the sign-in page to its
 * heading: what loading the app itself costs on this machine, which Home's greeting is compared with.
 *
 * `npm run bench -- web-home` builds the app first (`npm run build`); BENCH_NO_BUILD=1 measures the build
 * already there (the figures before a change, say).
 */
import os from 'node:os';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildUnlessAsked, launchChromium, startWebServer } from './web-server';

const RUNS = 7;
const GREETING_TARGET_MS = 1000;

/**
 * The browser's globals the page-side callbacks use, declared here: the benches compile without the DOM
 * library (its Blob and fetch types clash with Node's in the other benches).
 */
interface PageElement {
  textContent: string | null;
  querySelector(selector: string): PageElement | null;
}
interface PageGlobals {
  localStorage: { setItem(key: string, value: string): void };
  document: { querySelector(selector: string): PageElement | null };
  /** When each mark was reached, in ms from the navigation's start. */
  __marks: Record<string, number>;
}

interface Visit {
  /** ms from the navigation's start to the page's heading, at the next frame. */
  heading: number;
  /** ms until nothing in <main> is loading (Home only). */
  settled: number | null;
  requests: number;
  apiRequests: number;
  userRequests: number;
}

let clients = 0;

/**
 * One cold visit in a fresh context. `signedIn`: a new account is made over the API first (its refresh
 * cookie lands in the context; the browser's sign-in mark is set before any page script runs), so the page
 * load itself fetches nothing but what the app asks for.
 */
async function visit(browser: Browser, baseUrl: string, url: string, signedIn: boolean): Promise<Visit> {
  clients += 1;
  const context: BrowserContext = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1440, height: 900 },
    extraHTTPHeaders: { 'x-forwarded-for': `10.77.${Math.floor(clients / 250)}.${(clients % 250) + 1}` },
  });
  try {
    if (signedIn) {
      const email = `bench-home-${Date.now()}-${clients}@example.test`;
      const res = await context.request.post('/v1/auth/sign-up', {
        data: { email, password: 'Bench-password-1!', first_name: 'Ada' },
      });
      if (res.status() !== 201) throw new Error(`sign-up answered ${res.status()}`);
      await context.addInitScript(() =>
        (globalThis as unknown as PageGlobals).localStorage.setItem('xi:has-session', '1'),
      );
    }
    // The time each mark is reached, checked every 5 ms from the document's start. (An init script runs
    // against the window's first, empty document: its frame callbacks and DOM observers never fire for
    // the page's own document, its timers do.)
    await context.addInitScript(() => {
      const page = globalThis as unknown as PageGlobals;
      const marks: Record<string, number> = {};
      page.__marks = marks;
      const timer = setInterval(() => {
        const now = performance.now();
        const main = page.document.querySelector('main');
        const heading = main?.querySelector('h1')?.textContent ?? '';
        if (
          marks.heading === undefined &&
          /^(Good (morning|afternoon|evening)|Sign in to Parla)/.test(heading)
        )
          marks.heading = now;
        const text = main?.textContent ?? '';
        if (
          marks.heading !== undefined &&
          main &&
          !main.querySelector('[aria-busy="true"]') &&
          /Nothing generated yet|Recent generations/.test(text) &&
          / used/.test(text)
        ) {
          marks.settled = now;
          clearInterval(timer);
        }
      }, 5);
    });
    const page = await context.newPage();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(new URL(request.url()).pathname));
    await page.goto(url);
    const mark = signedIn ? 'settled' : 'heading';
    await page.waitForFunction(
      (name) => (globalThis as unknown as PageGlobals).__marks[name] !== undefined,
      mark,
    );
    await page.waitForLoadState('networkidle');
    const marks = await page.evaluate(() => (globalThis as unknown as PageGlobals).__marks);
    const api = urls.filter((u) => u.startsWith('/v1/'));
    return {
      heading: marks.heading ?? Number.NaN,
      settled: signedIn ? (marks.settled ?? Number.NaN) : null,
      requests: urls.length,
      apiRequests: api.length,
      userRequests: api.filter((u) => u === '/v1/user').length,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const ms = (value: number) => `${Math.round(value)} ms`;

export async function run(): Promise<void> {
  buildUnlessAsked();
  const server = await startWebServer({
    // Each visit is its own client address, so the sign-up limit per address is not reached.
    TRUST_PROXY: '127.0.0.1',
  });
  const browser = await launchChromium();
  try {
    // One visit of each first, not counted: the server's and the browser's own start-up.
    await visit(browser, server.url, '/app/sign-in', false);
    await visit(browser, server.url, '/app/home', true);
    const baseline: Visit[] = [];
    const home: Visit[] = [];
    for (let i = 0; i < RUNS; i++) {
      baseline.push(await visit(browser, server.url, '/app/sign-in', false));
      home.push(await visit(browser, server.url, '/app/home', true));
    }
    const load = os.loadavg()[0]?.toFixed(1);
    const baseHeading = median(baseline.map((v) => v.heading));
    const greeting = median(home.map((v) => v.heading));
    const settled = median(home.map((v) => v.settled ?? Number.NaN));
    const slowest = Math.max(...home.map((v) => v.heading));
    const users = Math.max(...home.map((v) => v.userRequests));
    console.log(`${RUNS} cold visits each, 1440×900, load average ${load} on ${os.cpus().length} cores`);
    console.log(`baseline: /app/sign-in to its heading            ${ms(baseHeading)} (median)`);
    console.log(
      `Home: to the greeting (first meaningful paint)      ${ms(greeting)} median, ${ms(slowest)} slowest, ${(greeting / baseHeading).toFixed(2)}× the baseline  target ≤ ${GREETING_TARGET_MS} ms: ${greeting <= GREETING_TARGET_MS ? 'PASS' : 'FAIL'}`,
    );
    console.log(`Home: to the main content (nothing loading)       ${ms(settled)} median`);
    console.log(
      `Home: requests ${median(home.map((v) => v.requests))} (API ${median(home.map((v) => v.apiRequests))}), GET /v1/user ${users} at most  target 1: ${users === 1 ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
