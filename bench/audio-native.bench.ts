/**
 * The Audio Native embed (issue 30, Performance): the player script's size and how soon the player is
 * interactive on a host page. Through the built server as `npm start` serves it, a player is made over the API
 * (flite: the conversion takes a second) and a host page on ANOTHER local origin (a second http server on
 * 127.0.0.1) embeds its html_snippet. Each of RUNS visits is a fresh Chromium context (cold cache). Printed:
 * - the script's size, raw and gzipped (-9), as served; target < 20 KB gzipped;
 * - from the host page's load event to the player interactive (its controls live: the element's
 *   `parla-audio-native-ready` event); target ≤ 300 ms. The async script often runs before the load event
 *   (it delays it), which counts as 0;
 * - from the navigation's start to the player interactive and to its audio set (config fetched), beside the
 *   baseline measured in the same run: the same host page without the snippet, navigation start to load.
 *
 * `npm run bench -- audio-native` builds the app first; BENCH_NO_BUILD=1 measures the build already there.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import { buildUnlessAsked, launchChromium, startWebServer } from './web-server';

const RUNS = 9;
const READY_TARGET_MS = 300;
const SIZE_TARGET_BYTES = 20 * 1024;

/** A player made over the API and converted (flite), its snippet returned once it is published. */
async function makePlayer(base: string): Promise<string> {
  const email = `bench-an-${Date.now()}@example.test`;
  const signUp = await fetch(`${base}/v1/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Bench-password-1!' }),
  });
  const { access_token: token } = (await signUp.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}` };
  const form = new FormData();
  form.append('name', 'Bench article');
  form.append('model_id', 'parla_english_v1');
  form.append('auto_convert', 'true');
  form.append('file', new Blob(['The moon pulls the sea a little every hour.']), 'article.txt');
  const created = await fetch(`${base}/v1/audio-native`, { method: 'POST', headers, body: form });
  if (!created.ok) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { project_id: id, html_snippet: snippet } = (await created.json()) as {
    project_id: string;
    html_snippet: string;
  };
  for (let i = 0; i < 600; i++) {
    const settings = await fetch(`${base}/v1/audio-native/${id}/settings`, { headers });
    const body = (await settings.json()) as { settings?: { status?: string } };
    if (body.settings?.status === 'ready') return snippet;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the player was not published');
}

/** The host page: a short article, with or without the snippet; an inline script notes the player's marks. */
function hostPage(snippet: string): string {
  const marks = `<script>window.__marks={};document.addEventListener('parla-audio-native-ready',function(){window.__marks.ready=performance.now()});new MutationObserver(function(){var p=document.querySelector('.parla-audio-native[data-loaded]');if(p&&!window.__marks.loaded)window.__marks.loaded=performance.now()}).observe(document.documentElement,{subtree:true,attributes:true});</script>`;
  return `<!doctype html><html><head><title>Host</title>${marks}</head><body><h1>A post</h1>${snippet}<p>${'Some text. '.repeat(200)}</p></body></html>`;
}

interface PageGlobals {
  __marks: { ready?: number; loaded?: number };
  performance: { getEntriesByType(type: string): { loadEventEnd: number; loadEventStart: number }[] };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const ms = (value: number) => `${Math.round(value)} ms`;

export async function run(): Promise<void> {
  buildUnlessAsked();
  const server = await startWebServer();
  const pages = new Map<string, string>();
  const host = http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(pages.get(request.url ?? '') ?? '');
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  try {
    const script = await (await fetch(`${server.url}/audio-native.js`)).text();
    const gzipped = gzipSync(script, { level: 9 }).byteLength;
    const snippet = await makePlayer(server.url);
    pages.set('/with', hostPage(snippet));
    pages.set('/without', hostPage(''));
    const visit = async (pathName: string) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${hostUrl}${pathName}`, { waitUntil: 'load' });
        if (pathName === '/with')
          await page.waitForFunction(
            () => (globalThis as unknown as PageGlobals).__marks.loaded !== undefined,
          );
        return await page.evaluate(() => {
          const g = globalThis as unknown as PageGlobals;
          const nav = g.performance.getEntriesByType('navigation')[0];
          return { load: nav?.loadEventStart ?? Number.NaN, ...g.__marks };
        });
      } finally {
        await context.close();
      }
    };
    await visit('/with');
    await visit('/without');
    const with_: { load: number; ready?: number; loaded?: number }[] = [];
    const without: { load: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      with_.push(await visit('/with'));
      without.push(await visit('/without'));
    }
    const afterLoad = median(with_.map((v) => Math.max(0, (v.ready ?? Number.NaN) - v.load)));
    const slowestAfterLoad = Math.max(...with_.map((v) => Math.max(0, (v.ready ?? Number.NaN) - v.load)));
    const baseline = median(without.map((v) => v.load));
    const ready = median(with_.map((v) => v.ready ?? Number.NaN));
    const loaded = median(with_.map((v) => v.loaded ?? Number.NaN));
    console.log(
      `${RUNS} cold visits each, load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`,
    );
    console.log(
      `script: ${script.length} B raw, ${gzipped} B gzipped  target < ${SIZE_TARGET_BYTES} B: ${gzipped < SIZE_TARGET_BYTES ? 'PASS' : 'FAIL'}`,
    );
    console.log(
      `baseline: the host page without the player, navigation start to load   ${ms(baseline)} (median)`,
    );
    console.log(
      `host page with the player: load ${ms(median(with_.map((v) => v.load)))}, player interactive ${ms(ready)}, audio set ${ms(loaded)} from navigation start (${(ready / baseline).toFixed(2)}× the baseline's load)`,
    );
    console.log(
      `load event → player interactive: ${ms(afterLoad)} median, ${ms(slowestAfterLoad)} slowest  target ≤ ${READY_TARGET_MS} ms: ${slowestAfterLoad <= READY_TARGET_MS ? 'PASS' : 'FAIL'}`,
    );
    const audioAfterLoad = median(with_.map((v) => Math.max(0, (v.loaded ?? Number.NaN) - v.load)));
    console.log(`load event → audio set (config fetched, src given): ${ms(audioAfterLoad)} median`);
  } finally {
    await browser.close();
    host.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
