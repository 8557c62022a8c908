import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HealthResponse } from '@parla/contracts';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, type SpawnedNode, seedEmbeddedDatabase, spawnTsNode } from './test/processes';

const here = path.dirname(fileURLToPath(import.meta.url));
const entry = path.join(here, 'main.ts');
/** A process that keeps a scratch folder open until it is killed. */
const scratchHolder = path.join(here, 'test', 'fixtures', 'share-video-render.ts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-main-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs the real server entry as its own process, on the database leg under test. */
function startServer(env: Record<string, string>, args: string[] = []): SpawnedNode {
  const url = inject('databaseUrl');
  const server = spawnTsNode(entry, args, {
    LOG_LEVEL: 'info',
    ENGINE_POOL_SIZE: '1',
    ...(url ? { DATABASE_URL: url } : {}),
    ...env,
  });
  children.push(server.child);
  return server;
}

async function waitHealthy(port: number): Promise<Response> {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return res;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy');
}

describe('the server process', () => {
  it('refuses to start on an invalid configuration and lists every problem', async () => {
    const server = startServer({ PORT: 'http', JOB_LEASE_SECONDS: '-1', DATA_DIR: path.join(tmp, 'bad') }, [
      '--role=chief',
    ]);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration:');
    for (const name of ['PORT:', 'JOB_LEASE_SECONDS:', '--role:']) expect(server.output()).toContain(name);
  });

  it('clears the scratch folders killed processes left, serves, then shuts down gracefully on SIGTERM with exit code 0', async () => {
    // A temp directory of its own, so no other process sweeps it meanwhile.
    const scratchTmp = path.join(tmp, 'scratch-tmp');
    fs.mkdirSync(scratchTmp);
    const holder = spawnTsNode(scratchHolder, ['hold'], { TMPDIR: scratchTmp });
    children.push(holder.child);
    await expect.poll(() => holder.output(), { timeout: 30_000 }).toMatch(/^root \S+\n/m);
    const deadRoot = /^root (\S+)$/m.exec(holder.output())?.[1] ?? '';
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(fs.existsSync(deadRoot)).toBe(true);

    const port = await freePort();
    await seedEmbeddedDatabase(path.join(tmp, 'a'));
    const server = startServer({ PORT: String(port), DATA_DIR: path.join(tmp, 'a'), TMPDIR: scratchTmp });
    await waitHealthy(port);
    expect(fs.existsSync(deadRoot)).toBe(false);
    expect(server.output()).toContain('removed the scratch folders of processes that are gone');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"shutting down"');
    expect(server.output()).toContain('"msg":"stopped"');
    // A clean stop leaves no scratch root behind.
    expect(fs.readdirSync(scratchTmp).filter((name) => name.startsWith('parla-scratch.'))).toEqual([]);
  }, 60_000);

  it.runIf(!inject('databaseUrl'))(
    'refuses a second process on the same embedded database',
    async () => {
      const dataDir = path.join(tmp, 'shared');
      await seedEmbeddedDatabase(dataDir);
      const port = await freePort();
      const first = startServer({ PORT: String(port), DATA_DIR: dataDir });
      await waitHealthy(port);
      const second = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain('Another Parla process (pid');
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    },
    60_000,
  );

  it('explains a busy port in a sentence', async () => {
    const port = await freePort();
    const busy = net.createServer().listen(port, '127.0.0.1');
    try {
      await seedEmbeddedDatabase(path.join(tmp, 'busy'));
      const server = startServer({ PORT: String(port), DATA_DIR: path.join(tmp, 'busy') });
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(
        'Parla failed to start: The port is already in use by another program.',
      );
    } finally {
      busy.close();
    }
  }, 60_000);

  it.runIf(inject('databaseUrl'))(
    'runs as separate api and worker processes on PostgreSQL; the worker serves health only',
    async () => {
      const [apiPort, workerPort] = [await freePort(), await freePort()];
      const api = startServer({ PORT: String(apiPort), DATA_DIR: path.join(tmp, 'api') }, ['--role=api']);
      const worker = startServer({ PORT: String(workerPort), DATA_DIR: path.join(tmp, 'worker') }, [
        '--role=worker',
      ]);
      const roleOf = async (port: number) =>
        HealthResponse.parse(await (await waitHealthy(port)).json()).role;
      expect(await roleOf(apiPort)).toBe('api');
      expect(await roleOf(workerPort)).toBe('worker');
      expect((await fetch(`http://127.0.0.1:${apiPort}/openapi.json`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${workerPort}/openapi.json`)).status).toBe(404);
      api.child.kill('SIGTERM');
      worker.child.kill('SIGTERM');
      expect([await api.exited, await worker.exited]).toEqual([0, 0]);
    },
    60_000,
  );
});
