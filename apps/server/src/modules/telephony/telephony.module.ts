import { defineModule, moduleJob } from '../../platform/module';
import { BATCH_CALLS_EVERY_MS, batchCallsJob } from './telephony.jobs';
import { telephonyRoutes } from './telephony.routes';
import * as tables from './telephony.tables';

/**
 * Agents' phone numbers and phone calls (issue 28): Twilio numbers, outbound and registered calls, the
 * media stream, batch calls and their job.
 */
export const telephonyModule = defineModule({
  name: 'telephony',
  routes: [telephonyRoutes],
  jobs: [moduleJob(batchCallsJob, (app) => app)],
  schedules: [{ definition: batchCallsJob, everyMs: () => BATCH_CALLS_EVERY_MS }],
  tables,
});
