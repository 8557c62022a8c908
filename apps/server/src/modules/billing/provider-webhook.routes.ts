import { stripeWebhookRoute } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { JSON_MAX_DEPTH, jsonNestsDeeperThan, jsonTooDeep } from '../../platform/json-depth';
import { registerRoute } from '../../platform/route';
import type { BillingProvider } from '../../providers/billing/billing-provider';
import { handleProviderWebhook, type WebhookProvider } from './provider-webhook.service';

/** The API's webhook route of each provider that sends webhooks (the contract names Stripe's). */
const WEBHOOK_ROUTES: Partial<Record<BillingProvider['name'], typeof stripeWebhookRoute>> = {
  stripe: stripeWebhookRoute,
};

/**
 * The payment provider's webhook endpoint (registered only for a provider with a webhook side: Stripe). The
 * provider signs the exact bytes it sends, so in this plugin's scope — and only here — JSON bodies are kept
 * as raw Buffers.
 */
export async function providerWebhookRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  provider: WebhookProvider,
): Promise<void> {
  const route = WEBHOOK_ROUTES[provider.name];
  if (!route)
    throw new Error(`The ${provider.name} billing provider sends webhooks but has no route for them`);
  const { webhooks } = provider;
  if (webhooks.notReady) deps.logger.warn(webhooks.notReady);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    // The app's depth rule (json-depth.ts), before the signature is checked and the event parsed.
    if (jsonNestsDeeperThan(body, JSON_MAX_DEPTH)) done(jsonTooDeep(), undefined);
    else done(null, body);
  });
  const deliveries = { db: deps.database.db, events: deps.events, clock: deps.clock, provider };
  registerRoute(app, route, async ({ request }) =>
    handleProviderWebhook(
      deliveries,
      Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      request.headers[webhooks.signatureHeader],
    ),
  );
}
