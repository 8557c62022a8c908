import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';
import type { BillingDeps } from './billing.context';
import { runBillingRenewals } from './renewals.service';

/** Set by the process entry: the renewal job's dependencies (the worker runs jobs with payloads only). */
let renewalDeps: BillingDeps | undefined;
export function provideRenewalDeps(deps: BillingDeps): void {
  renewalDeps = deps;
}

/** Closes ended billing periods, charges renewals and refreshes credits (renewals.service runBillingRenewals). */
export const billingRenewalsJob = defineJob({
  name: 'billing.renewals',
  payload: z.object({}),
  maxAttempts: 3,
  async handler() {
    if (!renewalDeps) throw new Error('billing renewals ran before the process provided their dependencies');
    return runBillingRenewals(renewalDeps);
  },
});
