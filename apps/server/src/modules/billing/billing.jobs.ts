import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';
import type { BillingDeps } from './billing.context';
import { runBillingRenewals } from './renewals.service';

/** Closes ended billing periods, charges renewals and refreshes credits (renewals.service runBillingRenewals). */
export const billingRenewalsJob = defineJob<Record<string, never>, BillingDeps>({
  name: 'billing.renewals',
  payload: z.object({}),
  maxAttempts: 3,
  async handler(_payload, _ctx, deps) {
    return runBillingRenewals(deps);
  },
});
