import type { AppDeps } from '../../app-deps';
import { defineModule, moduleJob } from '../../platform/module';
import { isStripeProvider } from '../../providers/billing/stripe-provider';
import { billingRenewalsJob } from './billing.jobs';
import { billingRoutes } from './billing.routes';
import * as tables from './billing.tables';
import { stripeWebhookRoutes } from './stripe-webhook.routes';

/** Stripe's webhook, served only when Stripe takes the payments. */
async function stripeWebhook(app: Parameters<typeof billingRoutes>[0], deps: AppDeps): Promise<void> {
  const provider = deps.providers.billing;
  if (isStripeProvider(provider)) await stripeWebhookRoutes(app, deps, provider);
}

/** Plans, checkout, the subscription lifecycle, invoices, renewals, the payment providers. */
export const billingModule = defineModule({
  name: 'billing',
  routes: [billingRoutes, stripeWebhook],
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
