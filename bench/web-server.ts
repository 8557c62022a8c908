/**
 * The built server WITH its web app, as `npm start` serves it and the e2e journeys start it (on a fresh
 * DATA_DIR and a free port), and Debian's Chromium as e2e/support/browser.ts launches it: what the
 * browser benches (web-home, audio-native) measure through.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { freePort, waitForHealth } from './processes';

const root = path.resolve(import.meta.dirname, '..');

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `npm run build` first, unless BENCH_NO_BUILD=1 (to measure the build already there: the figures before a change). */
export function buildUnlessAsked(): void {
  if (process.env.BENCH_NO_BUILD !== '1')
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
}

export async function startWebServer(
  env: Record<string, string> = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-bench-web-'));
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      PUBLIC_URL: url,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForHealth(url);
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
