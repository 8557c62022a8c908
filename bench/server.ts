/**
 * The server as the benches measure it: built and started as `npm start` runs it, on a fresh DATA_DIR,
 * with a user and API key made by the admin command.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PREMADE_VOICES } from '../packages/contracts/src/tts-catalog';
import { freePort } from './processes';

const root = path.resolve(import.meta.dirname, '..');

export const sleep = (delayMs: number) => new Promise((resolve) => setTimeout(resolve, delayMs));

export interface Server {
  url: string;
  apiKey: string;
  /**
   * `apiKey` and one more per extra user asked for (`keys`), each of its own workspace: a plan's
   * concurrency (enterprise: 15 requests or open sockets at a time) counts per workspace.
   */
  apiKeys: string[];
  /** The server process's id (its engine children and program hosts are its descendants). */
  pid: number;
  /** The server's DATA_DIR (its files are under `files/`). */
  dataDir: string;
  stop(): Promise<void>;
}

function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { cwd: root, env, timeout: 120_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

/**
 * The server as `npm start` runs it (built here first), on a fresh DATA_DIR and a free port. The user (tier
 * enterprise: enough credits and concurrency for the load) and its API key come from `npm run admin`,
 * run against that DATA_DIR before the server owns it; with `keys`, that many users and keys (one after
 * the other: the admin command owns the DATA_DIR while it runs).
 */
export async function startParla(
  options: {
    tier?: string /** More of the server's environment (its config). */;
    env?: Record<string, string>;
    /** Users (each with a workspace and an API key) to make: 1 unless said. */
    keys?: number;
  } = {},
): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-bench-'));
  // WEB_DIST_DIR points where no web app is: the API alone, whatever state a web build is in.
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: dataDir,
    ...options.env,
  };
  const apiKeys: string[] = [];
  for (let i = 0; i < Math.max(1, options.keys ?? 1); i++) {
    const created = await runNode(
      [
        '--import',
        'tsx',
        'apps/server/src/admin.ts',
        'create-user',
        '--email',
        i === 0 ? 'bench@example.com' : `bench${i + 1}@example.com`,
        '--password',
        'Bench-password-1',
        '--tier',
        options.tier ?? 'enterprise',
        '--api-key',
      ],
      env,
    );
    const key = /sk_[0-9a-f]+/.exec(created)?.[0];
    if (!key) throw new Error(`the admin command printed no API key:\n${created}`);
    apiKeys.push(key);
  }
  const apiKey = apiKeys[0] as string;
  await runNode(['scripts/build-server.mjs'], env);
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  let up = false;
  for (let i = 0; i < 240 && !up; i++) {
    try {
      up = (await fetch(`${url}/health`)).ok;
    } catch {}
    if (!up) await sleep(250);
  }
  if (!up) {
    child.kill('SIGKILL');
    throw new Error('the server did not come up');
  }
  // The server makes the premade voices' previews in the background at start: wait for them, so they do
  // not run during the measurements.
  // (One folder per voice, its preview inside; the neural previews rest between each other and take up
  // to ten minutes on 2 busy cores.)
  const previews = path.join(dataDir, 'files/voice-previews/v2');
  const made = () =>
    fs.existsSync(previews)
      ? fs
          .readdirSync(previews)
          .filter((v) => fs.readdirSync(path.join(previews, v)).some((f) => f.endsWith('.mp3'))).length
      : 0;
  for (let i = 0; i < 4500; i++) {
    if (made() >= PREMADE_VOICES.length) break;
    await sleep(200);
  }
  return {
    url,
    apiKey,
    apiKeys,
    pid: child.pid as number,
    dataDir,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
