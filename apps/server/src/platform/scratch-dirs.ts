import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { newId } from './ids';

/*
 * Scratch folders for work on files: share-video renders, uploads handed to ffmpeg, engine programs'
 * output. A process killed mid-way (SIGKILL, out of memory, a pool killing an engine child past its time
 * bound) cannot remove its folders, so each process (each thread) keeps them under a root of its own in
 * the system temp directory, named `parla-scratch.<host>.<pid>.<start second>.<random>`: a root of this
 * host whose process is gone is a dead run's leftovers. They are removed when a process starts (main.ts),
 * when a process first makes a scratch folder (engine children are respawned after a kill), and when a
 * share-video job runs again after a crash.
 */

const ROOT_PREFIX = 'parla-scratch.';
/** This host's name as it stands in a root's name (no dots, so the name splits on them). */
const HOST = os.hostname().replace(/[^A-Za-z0-9-]/g, '_') || 'host';
/**
 * When this process started, in whole seconds. With the pid it tells this process's roots (from any of
 * its threads) from those of an earlier process that had the same pid: a container's server gets the same
 * small pid on every start.
 */
const STARTED_S = Math.round((Date.now() - process.uptime() * 1000) / 1000);

let root: Promise<string> | undefined;

/** This thread's root, made on first use after the leftovers of dead processes are removed. */
function processRoot(): Promise<string> {
  root ??= (async () => {
    await removeDeadScratchDirs();
    const dir = path.join(os.tmpdir(), `${ROOT_PREFIX}${HOST}.${process.pid}.${STARTED_S}.${newId(8)}`);
    await fsp.mkdir(dir, { mode: 0o700 });
    // A clean exit leaves nothing behind; only a killed process leaves its root for the next sweep.
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  })().catch((error: unknown) => {
    root = undefined;
    throw error;
  });
  return root;
}

/** A new private folder (`prefix` + random) under this process's root; the caller removes it. */
export async function makeScratchDir(prefix: string): Promise<string> {
  return fsp.mkdtemp(path.join(await processRoot(), prefix));
}

/** Runs `use` with a new scratch folder and removes the folder after it, however `use` ends. */
export async function withScratchDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await makeScratchDir(prefix);
  try {
    return await use(dir);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** Whether the process a root names is gone: it is not running, or it is this pid but an earlier start. */
function processGone(pid: number, startedS: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return Math.abs(startedS - STARTED_S) > 2;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes the scratch roots of this host's processes that are gone, with everything in them; answers
 * their paths. Roots of other hosts (a temp directory shared between machines) and of live processes are
 * left alone, and a root that cannot be removed (another user's) is skipped.
 */
export async function removeDeadScratchDirs(): Promise<string[]> {
  const tmp = os.tmpdir();
  const names = await fsp.readdir(tmp).catch(() => [] as string[]);
  const dead = names
    .filter((name) => {
      if (!name.startsWith(ROOT_PREFIX)) return false;
      const [, host, pid, started] = name.split('.');
      return host === HOST && processGone(Number(pid), Number(started));
    })
    .map((name) => path.join(tmp, name));
  const removed = await Promise.all(
    dead.map((dir) =>
      fsp.rm(dir, { recursive: true, force: true }).then(
        () => dir,
        () => undefined,
      ),
    ),
  );
  return removed.filter((dir) => dir !== undefined);
}
