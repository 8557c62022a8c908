import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The server's unavailable models (the model store), by id, with the reason: journeys that need one skip. */
    unavailableModels: Record<string, string>;
  }
}

const root = path.resolve(import.meta.dirname, '..', '..');
const serverEntry = path.join(root, 'apps/server/dist/main.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts the real built server (API + web) on a free port with a fresh data dir, for the whole run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!fs.existsSync(serverEntry) || !fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('The app is not built: run `npm run build` before the e2e tests.');
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-e2e-'));
  const log = fs.createWriteStream(path.join(root, 'e2e', 'artifacts', 'server.log'));
  const server: ChildProcess = spawn(process.execPath, [serverEntry], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      // The browsers' contexts name their own client address (support/browser.ts clientHeaders).
      TRUST_PROXY: '127.0.0.1',
      // Links in mails point at the address the browser uses, so cookies and storage stay on one origin.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Agents answer in knowledge-base mode: the journeys check what a conversation does, not what the
      // embedded model (seconds a turn on 2 cores, and not deterministic) happens to say.
      LLM_PROVIDER: 'none',
      ...(process.env.MODELS_DIR ? { MODELS_DIR: process.env.MODELS_DIR } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  // The engine children warm the neural models after the server is up (engine-pool warmUp): counted from
  // the log, so the journeys start once they are warm (below).
  let warmedUp = 0;
  let pending = '';
  server.stdout?.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.includes('"msg":"engine process warmed up"')) warmedUp += 1;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null)
      throw new Error(`The server exited with ${server.exitCode}; see e2e/artifacts/server.log`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error('The server did not become healthy in 60 s; see e2e/artifacts/server.log');
    await new Promise((r) => setTimeout(r, 250));
  }
  project.provide('baseUrl', baseUrl);
  const health = (await (await fetch(`${baseUrl}/health`)).json()) as {
    checks: { engines?: { message?: string } };
    models: { id: string; available: boolean; reason: string | null }[];
  };
  // A request sent while every child still loads Kokoro and Piper waits for them; on a loaded 2-core
  // machine that took 43 s, past the 30 s an engine may stay busy, and the first journey's speech failed
  // with a 503. Wait (bounded) until each child is warm; past the bound the journeys run anyway.
  const children = Number(
    /(?:\d+ of )?(\d+) engine processes/.exec(health.checks.engines?.message ?? '')?.[1] ?? 0,
  );
  const warmDeadline = Date.now() + 180_000;
  while (warmedUp < children && Date.now() < warmDeadline && server.exitCode === null)
    await new Promise((r) => setTimeout(r, 250));
  if (warmedUp < children)
    console.warn(`${warmedUp} of ${children} engine processes warmed up in 180 s; the journeys start anyway`);
  project.provide(
    'unavailableModels',
    Object.fromEntries(
      health.models.filter((m) => !m.available).map((m) => [m.id, m.reason ?? 'unavailable']),
    ),
  );
  return async () => {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
