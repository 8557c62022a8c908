import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';

/** The server's entries that the integration leg bundles once for the run (test/global-setup.ts). */
const bundledEntries: Record<string, string> = {
  [fileURLToPath(new URL('../main.ts', import.meta.url))]: 'main.js',
  [fileURLToPath(new URL('../admin.ts', import.meta.url))]: 'admin.js',
};

/**
 * The node arguments that run `entry`: the run's bundle of the server or the admin command when there is
 * one (as `npm start` runs the build: node on one file, whose engine children start from the bundled child
 * entry beside it), else the TypeScript source under tsx (fixtures, and a run without the bundle).
 */
function nodeArguments(entry: string): string[] {
  const name = bundledEntries[path.resolve(entry)];
  const dir = name ? inject('serverBundleDir') : '';
  if (name && dir && fs.existsSync(path.join(dir, name))) return [path.join(dir, name)];
  return ['--import', 'tsx', entry];
}

export interface SpawnedNode {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
}

/**
 * Runs a TypeScript entry in its own Node process with exactly the given environment: under tsx, or from
 * the run's bundle for the server and the admin command (nodeArguments).
 */
export function spawnTsNode(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  /** Written to the process's standard input, which then closes. */
  stdin?: string,
): SpawnedNode {
  const child = spawn(process.execPath, [...nodeArguments(entry), ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (stdin !== undefined) child.stdin?.end(stdin);
  let output = '';
  const collect = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/**
 * On the PGlite leg, makes `dataDir`'s embedded database (`<dataDir>/db`, as config.ts places it) from the
 * run's migrated snapshot (global-setup.ts), before a server, worker or admin command is started on the
 * folder: the server then answers /health in 9 s instead of 18 s from a fresh folder (the mean of 3 starts
 * each in one run on the loaded 2-core machine, 2026-11-29), the initdb, migrations and seeding of each
 * such process gone. The process still migrates and seeds on start, a no-op on this copy; a fresh folder's
 * own initdb and migrations run in each e2e journey's server and in global-setup.ts.
 * On the PostgreSQL leg there is nothing to do: the server under test is migrated once for the run.
 */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  if (inject('databaseUrl')) return;
  const snapshot = new Blob([fs.readFileSync(inject('pgliteSnapshot'))]);
  fs.mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(path.join(dataDir, 'db'), { loadDataDir: snapshot });
  await client.close();
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The server's entry (`main.ts`, bundled: nodeArguments) run with exactly `env`; pushed to `children` to be killed after. */
export function spawnServer(env: NodeJS.ProcessEnv, children: ChildProcess[]): SpawnedNode {
  const server = spawnTsNode(new URL('../main.ts', import.meta.url).pathname, [], env);
  children.push(server.child);
  return server;
}

/** Resolves once `GET /health` answers 200 (within a minute; the server's output is the failure's message). */
export async function waitHealthy(base: string, server: SpawnedNode): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = (await fetch(`${base}/health`).catch(() => undefined))?.status;
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`the server did not become healthy:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
