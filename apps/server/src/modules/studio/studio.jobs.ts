import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';
import { abandonConversion, runConversion } from './studio.convert';
import type { StudioDeps } from './studio.deps';

/** Attempts in all: a plan whose concurrency slots are all taken waits for the next (2 s, 4 s, … ~4 min). */
const MAX_ATTEMPTS = 8;

/**
 * A project's (or some chapters') conversion to audio (studio.convert.ts runConversion). A run after a
 * crash resumes: every block already spoken is in storage under its hash and is not spoken again.
 */
export const convertJob = defineJob<
  {
    projectId: string;
    workspaceId: string;
    chapterIds: string[];
    /** What was asked to convert: the project (project_conversion_status) or a chapter. */
    scope: 'project' | 'chapter';
    userId: string;
    apiKeyId: string | null;
    requestId: string;
  },
  StudioDeps
>({
  name: 'studio.convert',
  payload: z.object({
    projectId: z.string(),
    workspaceId: z.string(),
    chapterIds: z.array(z.string()),
    scope: z.enum(['project', 'chapter']),
    userId: z.string(),
    apiKeyId: z.string().nullable(),
    requestId: z.string(),
  }),
  maxAttempts: MAX_ATTEMPTS,
  backoffBaseMs: 2000,
  async handler(payload, ctx, deps) {
    await runConversion(deps, payload, {
      signal: ctx.signal,
      lastAttempt: ctx.attempt >= ctx.maxAttempts,
      progress: (value) => ctx.progress(value),
    });
  },
  // The last attempt failed (or its process died): the project must not stay `converting`.
  onExhausted: (payload, failure, deps) => abandonConversion(deps, payload, failure),
});
