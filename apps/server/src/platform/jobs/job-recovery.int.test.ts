import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type SpawnedNode, seedEmbeddedDatabase, spawnTsNode } from '../../test/processes';
import { openDatabase } from '../db/client';
import { JobQueue } from './job-queue';

const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/crash-worker.ts',
);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-recovery-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The worker's environment: the same database leg as the suite, with a short lease on PostgreSQL. */
function workerEnv(): NodeJS.ProcessEnv {
  const url = inject('databaseUrl');
  const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn', JOB_LEASE_SECONDS: '2' };
  if (url) env.DATABASE_URL = url;
  else env.DATA_DIR = path.join(tmp, 'data');
  return env;
}

function startWorker(marker: string, flags: string[]): SpawnedNode {
  const worker = spawnTsNode(fixture, [marker, ...flags], workerEnv());
  children.push(worker.child);
  return worker;
}

const readLines = (file: string) =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];

describe('job recovery after the process dies mid-job', () => {
  it('runs the interrupted job again and completes it exactly once', async () => {
    const marker = path.join(tmp, 'marker.txt');
    fs.writeFileSync(marker, '');
    await seedEmbeddedDatabase(path.join(tmp, 'data'));

    // 1. A worker enqueues the job, starts it, and is killed while the job is running.
    const first = startWorker(marker, ['--enqueue']);
    await expect.poll(() => readLines(marker), { timeout: 30_000, interval: 100 }).toEqual(['start 1']);
    const jobId = /enqueued (\w+)/.exec(first.output())?.[1];
    expect(jobId).toBeDefined();
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();

    // 2. A new worker finds the orphaned job (at once on PGlite, after the 2 s lease on PostgreSQL),
    //    runs it a second time, and this time it completes.
    const second = startWorker(marker, ['--exit-when-done']);
    expect(await second.exited, second.output()).toBe(0);
    expect(readLines(marker)).toEqual(['start 1', 'start 2', 'done 2']);

    // 3. A third worker starts and finds nothing to run: the job stays completed, it never runs again.
    const third = startWorker(marker, []);
    await expect.poll(() => third.output(), { timeout: 30_000 }).toContain('worker started');
    await new Promise((r) => setTimeout(r, 3000));
    third.child.kill('SIGTERM');
    await third.exited;
    expect(readLines(marker)).toEqual(['start 1', 'start 2', 'done 2']);

    const url = inject('databaseUrl');
    const database = await openDatabase(
      url ? { kind: 'postgres', url, poolSize: 1 } : { kind: 'pglite', dir: path.join(tmp, 'data', 'db') },
    );
    try {
      const job = await new JobQueue(database.db).getJob(jobId ?? '');
      expect(job).toMatchObject({
        state: 'completed',
        attempts: 2,
        progress: 1,
        result: { finishedOnAttempt: 2 },
      });
    } finally {
      await database.close();
    }
  }, 120_000);
});
