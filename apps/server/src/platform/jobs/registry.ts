import { billingRenewalsJob } from '../../modules/billing/billing.jobs';
import { shareVideoRenderJob } from '../../modules/history/share-video.jobs';
import { pvcSeparateJob, pvcTrainJob } from '../../modules/voices/pvc.jobs';
import { deliverEventJob } from '../events/event-bus';
import type { JobDefinition } from './job-definition';

/**
 * Every job the worker runs. Modules add their `<domain>.jobs.ts` definitions here.
 */
// biome-ignore lint/suspicious/noExplicitAny: jobs of every payload type; each is parsed by its own schema.
export const registeredJobs: JobDefinition<any>[] = [
  billingRenewalsJob,
  shareVideoRenderJob,
  pvcSeparateJob,
  pvcTrainJob,
  deliverEventJob,
];
