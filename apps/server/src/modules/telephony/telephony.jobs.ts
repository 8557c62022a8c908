import { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { defineJob } from '../../platform/jobs/job-definition';
import { dispatchBatchCalls } from './batch-calls';

/** How often the worker looks for batch calls to place (a call placed at most this late). */
export const BATCH_CALLS_EVERY_MS = 10_000;

/** Places the calls of batch calls whose time has come, within their concurrency (batch-calls.ts). */
export const batchCallsJob = defineJob<Record<string, never>, AppDeps>({
  name: 'telephony.batch-calls',
  payload: z.object({}),
  maxAttempts: 1,
  async handler(_payload, _ctx, deps) {
    return { placed: await dispatchBatchCalls(deps) };
  },
});
