import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';
import type { PvcDeps, PvcJobPayload } from './pvc.service';
import { runSeparation } from './pvc-separation.service';
import { runTraining } from './pvc-training.service';

/** What the professional-clone jobs read and write. */
export type PvcJobDeps = Pick<PvcDeps, 'db' | 'storage' | 'denoise'>;

const payload = z.object({ workspaceId: z.string(), voiceId: z.string(), sampleId: z.string().optional() });

/** Separates the speakers of one sample (pvc-separation.service runSeparation). */
export const pvcSeparateJob = defineJob<PvcJobPayload, PvcJobDeps>({
  name: 'voices.pvc-separate',
  payload,
  maxAttempts: 2,
  async handler(data, _ctx, deps) {
    await runSeparation(deps, data);
  },
});

/** Trains a professional clone from its samples (pvc-training.service runTraining). */
export const pvcTrainJob = defineJob<PvcJobPayload, PvcJobDeps>({
  name: 'voices.pvc-train',
  payload,
  maxAttempts: 2,
  async handler(data, ctx, deps) {
    await runTraining(deps, data, (share) => ctx.progress(share));
  },
});
