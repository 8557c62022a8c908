import { stripeWebhookRoute } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { JSON_MAX_DEPTH, jsonNestsDeeperThan, jsonTooDeep } from '../../platform/json-depth';
import { registerRoute } from '../../platform/route';
import type { StripeBillingProvider } from '../../providers/billing/stripe-provider';
import { handleStripeWebhook } from './stripe-webhook.service';

/**
 * Stripe's webhook endpoint (registered by app.ts only when the provider is Stripe). Stripe signs the
 * exact bytes it sends, so in this plugin's scope — and only here — JSON bodies are kept as raw Buffers.
 */
export async function stripeWebhookRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  provider: StripeBillingProvider,
): Promise<void> {
  if (!provider.webhookSecret) {
    deps.logger.warn('STRIPE_WEBHOOK_SECRET is not set: Stripe events are refused, so no checkout completes');
  }
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    // The app's depth rule (json-depth.ts), before the signature is checked and the event parsed.
    if (jsonNestsDeeperThan(body, JSON_MAX_DEPTH)) done(jsonTooDeep(), undefined);
    else done(null, body);
  });
  const webhook = { db: deps.database.db, events: deps.events, clock: deps.clock, provider };
  registerRoute(app, stripeWebhookRoute, async ({ request }) =>
    handleStripeWebhook(
      webhook,
      Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      request.headers['stripe-signature'],
    ),
  );
}
