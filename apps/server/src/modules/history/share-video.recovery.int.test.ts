import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../platform/db/client';
import { LocalStorage } from '../../platform/storage/local-storage';
import { type SpawnedNode, spawnTsNode } from '../../test/processes';
import { openTestDatabase } from '../../test/test-app';
import { shareVideoRenderJob } from './share-video.jobs';

const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/share-video-render.ts',
);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-video-recovery-'));
// A temp directory of this test's own, for the fixtures and this process: no other process sweeps it.
const scratchTmp = path.join(tmp, 'tmp');
fs.mkdirSync(scratchTmp);
const started: SpawnedNode[] = [];
let database: Database;
beforeAll(async () => {
  vi.stubEnv('TMPDIR', scratchTmp);
  database = await openTestDatabase();
});
afterAll(async () => {
  for (const run of started) {
    run.child.kill('SIGKILL');
    await run.exited;
  }
  await database.close();
  vi.unstubAllEnvs();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Starts the fixture; resolves with the process and its scratch root once it has printed it. */
async function start(mode: 'render' | 'hold'): Promise<{ run: SpawnedNode; root: string }> {
  const run = spawnTsNode(fixture, [mode], { LOG_LEVEL: 'warn', TMPDIR: scratchTmp });
  started.push(run);
  await expect.poll(() => run.output(), { timeout: 30_000, interval: 100 }).toMatch(/^root \S+\n/m);
  return { run, root: /^root (\S+)$/m.exec(run.output())?.[1] ?? '' };
}

/** The half-written video in a root's render folder, once ffmpeg has started writing it. */
const partialVideo = (root: string) =>
  fs
    .readdirSync(root)
    .filter((name) => name.startsWith('video-'))
    .map((name) => path.join(root, name, 'video.mp4'))
    .find((file) => fs.existsSync(file) && fs.statSync(file).size > 0);

describe('the scratch folder of a share-video render killed mid-way', () => {
  it('stays after the kill, and goes when the job runs again; live processes keep theirs', async () => {
    const killed = await start('render');
    await expect.poll(() => partialVideo(killed.root), { timeout: 60_000, interval: 100 }).toBeDefined();
    killed.run.child.kill('SIGKILL');
    expect(await killed.run.exited).toBeNull();
    expect(partialVideo(killed.root)).toBeDefined();

    const live = await start('hold');
    const [, host] = path.basename(live.root).split('.');
    const fakeRoot = (name: string) => {
      const dir = path.join(scratchTmp, `parla-scratch.${name}`);
      fs.mkdirSync(dir);
      return dir;
    };
    // The killed pid on another machine sharing the temp directory: not this host's to judge.
    const otherHost = fakeRoot(`elsewhere.${killed.run.child.pid}.1.x`);
    // This process's pid: an earlier process that had it is gone; this one (another thread) is not.
    const startedS = Math.round((Date.now() - process.uptime() * 1000) / 1000);
    const earlierProcess = fakeRoot(`${host}.${process.pid}.${startedS - 3600}.x`);
    const otherThread = fakeRoot(`${host}.${process.pid}.${startedS}.x`);

    // The job is claimed again (attempt 2); its item has gone meanwhile, so it renders nothing.
    const result = await shareVideoRenderJob.handler(
      { workspaceId: 'gone', historyItemId: 'gone', theme: 'dark', stripV3Tags: false },
      {
        jobId: 'j',
        attempt: 2,
        maxAttempts: 2,
        signal: new AbortController().signal,
        progress: async () => {},
      },
      { db: database.db, storage: new LocalStorage(path.join(tmp, 'files')) },
    );
    expect(result).toEqual({ skipped: 'the history item is gone' });
    expect(fs.existsSync(killed.root)).toBe(false);
    expect(fs.existsSync(earlierProcess)).toBe(false);
    expect(fs.existsSync(live.root)).toBe(true);
    expect(fs.existsSync(otherHost)).toBe(true);
    expect(fs.existsSync(otherThread)).toBe(true);
  }, 120_000);
});
