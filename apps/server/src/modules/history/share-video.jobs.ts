import { SHARE_VIDEO_THEMES } from '@parla/contracts';
import { z } from 'zod';
import type { Db } from '../../platform/db/client';
import { defineJob } from '../../platform/jobs/job-definition';
import { removeDeadScratchDirs } from '../../platform/scratch-dirs';
import type { Storage } from '../../platform/storage/storage';
import { renderShareVideoForJob, type ShareVideoJobPayload } from './share-video.service';

/** What the render job reads and writes. */
export interface ShareVideoJobDeps {
  db: Db;
  storage: Storage;
}

/** The least time between two progress writes of a render (each is a database write). */
const PROGRESS_EVERY_MS = 1000;

/** Renders a share video of a history item into storage (share-video.service renderShareVideoForJob). */
export const shareVideoRenderJob = defineJob<ShareVideoJobPayload, ShareVideoJobDeps>({
  name: 'history.share-video',
  payload: z.object({
    workspaceId: z.string(),
    historyItemId: z.string(),
    theme: z.enum(SHARE_VIDEO_THEMES),
    stripV3Tags: z.boolean(),
  }),
  // ffmpeg failing twice on the same input will fail again; the dialog's "Try again" starts a new job.
  maxAttempts: 2,
  backoffBaseMs: 1000,
  async handler(payload, ctx, deps) {
    // Run again after a crash, perhaps by another process of this host: the dead run's scratch folder goes.
    if (ctx.attempt > 1) await removeDeadScratchDirs();
    let lastWrite = 0;
    return renderShareVideoForJob(deps, payload, {
      signal: ctx.signal,
      onProgress: (share) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = now;
        void ctx.progress(share).catch(() => undefined);
      },
    });
  },
});
