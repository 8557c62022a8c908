import pino from 'pino';
import { workerJobs } from '../modules';
import type { JobDefinition } from '../platform/jobs/job-definition';
import { JobWorker } from '../platform/jobs/job-worker';
import type { TestApp } from './test-app';

/**
 * A job worker for a test app that runs only `jobs` (built from the app's dependencies as the real worker
 * builds them), one at a time, woken by each enqueue. Stop it before closing the app.
 */
export async function startTestWorker(
  t: TestApp,
  jobs: readonly Pick<JobDefinition, 'name'>[],
): Promise<JobWorker> {
  const worker = new JobWorker({
    db: t.deps.database.db,
    definitions: workerJobs(t.deps, jobs),
    concurrency: 1,
    leaseSeconds: 60,
    pollIntervalMs: 100,
    logger: pino({ level: 'silent' }),
    exclusiveDatabase: false,
  });
  t.deps.queue.onEnqueued = () => worker.wake();
  await worker.start();
  return worker;
}
