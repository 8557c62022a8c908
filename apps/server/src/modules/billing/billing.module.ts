import type { AppDeps } from '../../app-deps';
import { defineModule, moduleJob } from '../../platform/module';
import { billingRenewalsJob } from './billing.jobs';
import { billingRoutes } from './billing.routes';
import * as tables from './billing.tables';
import { providerWebhookRoutes } from './provider-webhook.routes';
import { hasWebhooks } from './provider-webhook.service';

/** The payment provider's webhook (Stripe's), served only when the provider taking the payments has one. */
async function providerWebhook(app: Parameters<typeof billingRoutes>[0], deps: AppDeps): Promise<void> {
  const provider = deps.providers.billing;
  if (hasWebhooks(provider)) await providerWebhookRoutes(app, deps, provider);
}

/** Plans, checkout, the subscription lifecycle, invoices, renewals, the payment providers. */
export const billingModule = defineModule({
  name: 'billing',
  routes: [billingRoutes, providerWebhook],
  jobs: [
    moduleJob(billingRenewalsJob, (app) => ({
      db: app.database.db,
      events: app.events,
      clock: app.clock,
      provider: app.providers.billing,
    })),
  ],
  // Closes ended periods, charges renewals and refreshes monthly credits (with Stripe, Stripe renews).
  schedules: [{ definition: billingRenewalsJob, everyMs: (config) => config.billing.renewalIntervalMs }],
  tables,
});
