/**
 * The cost of the request pipeline (request id, helmet, validation, error shape, logging off) against a
 * bare Fastify server answering the same JSON, both measured here with autocannon over loopback.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { freePort, waitForHealth } from './processes';

const root = path.resolve(import.meta.dirname, '..');
const DURATION_S = 5;

interface Load {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string): Promise<Load> {
  const result = await autocannon({ url, connections: 10, duration: DURATION_S });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function startParla(): Promise<{ url: string; stop: () => Promise<void> }> {
  const entry = path.join(root, 'apps/server/dist/main.js');
  if (!fs.existsSync(entry)) throw new Error('Build first: npm run build');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-bench-'));
  const child: ChildProcess = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
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

export async function run(): Promise<void> {
  const bare = Fastify();
  bare.get('/health', async () => ({ status: 'ok' }));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  const parla = await startParla();
  try {
    const baseline = await load(`${bareUrl}/health`);
    const health = await load(`${parla.url}/health`);
    const notFound = await load(`${parla.url}/v1/nope`);
    const row = (name: string, r: Load) =>
      console.log(
        `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ratio ${(r.rps / baseline.rps).toFixed(2)}  errors ${r.errors}  non-2xx ${r.non2xx}`,
      );
    row('baseline: bare Fastify JSON', baseline);
    row('Parla GET /health (db ping + engine heartbeat)', health);
    row('Parla JSON 404 (full pipeline)', notFound); // every answer is a 404 here, by design
  } finally {
    await bare.close();
    await parla.stop();
  }
}
