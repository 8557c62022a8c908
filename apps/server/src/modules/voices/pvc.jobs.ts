import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';
import type { PvcDeps, PvcJobPayload } from './pvc.service';
import { runSeparation } from './pvc-separation.service';
import { runTraining } from './pvc-training.service';

/**
 * Set by the process: what the professional-clone jobs read and write (the worker runs jobs with
 * payloads only). The PVC routes provide it, and main.ts for a `--role=worker` process.
 */
let pvcDeps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'> | undefined;
export function providePvcDeps(deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>): void {
  pvcDeps = deps;
}

const payload = z.object({ workspaceId: z.string(), voiceId: z.string(), sampleId: z.string().optional() });

const depsOrThrow = () => {
  if (!pvcDeps) throw new Error('a professional-clone job ran before the process provided its dependencies');
  return pvcDeps;
};

/** Separates the speakers of one sample (pvc-separation.service runSeparation). */
export const pvcSeparateJob = defineJob<PvcJobPayload>({
  name: 'voices.pvc-separate',
  payload,
  maxAttempts: 2,
  async handler(data) {
    await runSeparation(depsOrThrow(), data);
  },
});

/** Trains a professional clone from its samples (pvc-training.service runTraining). */
export const pvcTrainJob = defineJob<PvcJobPayload>({
  name: 'voices.pvc-train',
  payload,
  maxAttempts: 2,
  async handler(data, ctx) {
    await runTraining(depsOrThrow(), data, (share) => ctx.progress(share));
  },
});
