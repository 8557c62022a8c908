import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';
import { removeDeadScratchDirs } from '../../platform/scratch-dirs';
import type { DubbingDeps } from './dubbing.deps';
import { abandonDub, runDub } from './dubbing.pipeline';
import { abandonRender, runRender } from './dubbing.render';

/** Attempts in all: a plan whose concurrency slots are all taken waits for the next (2 s, 4 s, … ~4 min). */
const MAX_ATTEMPTS = 8;

/** A dub, from wherever it stands to dubbed (dubbing.pipeline.ts runDub); resumes after a crash. */
export const dubJob = defineJob<{ dubId: string; workspaceId: string }, DubbingDeps>({
  name: 'dubbing.dub',
  payload: z.object({ dubId: z.string(), workspaceId: z.string() }),
  maxAttempts: MAX_ATTEMPTS,
  backoffBaseMs: 2000,
  async handler(payload, ctx, deps) {
    if (ctx.attempt > 1) await removeDeadScratchDirs();
    await runDub(deps, payload, {
      signal: ctx.signal,
      lastAttempt: ctx.attempt >= ctx.maxAttempts,
      progress: (value) => ctx.progress(value),
    });
  },
  // The last attempt failed or its process died: the dub must not stay `dubbing`.
  onExhausted: (payload, _failure, deps) => abandonDub(deps, payload),
});

/** A render the editor asked for (`POST …/render/{language}`): its row says processing until it is stored. */
export const renderJob = defineJob<{ dubId: string; workspaceId: string; renderId: string }, DubbingDeps>({
  name: 'dubbing.render',
  payload: z.object({ dubId: z.string(), workspaceId: z.string(), renderId: z.string() }),
  maxAttempts: 3,
  async handler(payload, ctx, deps) {
    if (ctx.attempt > 1) await removeDeadScratchDirs();
    await runRender(deps, payload, ctx.signal, ctx.attempt >= ctx.maxAttempts);
  },
  onExhausted: (payload, _failure, deps) => abandonRender(deps, payload),
});
