import {
  createWebhookRoute,
  deleteWebhookRoute,
  listWebhookDeliveriesRoute,
  listWebhooksRoute,
  testWebhookRoute,
  updateWebhookRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import type { WebhookDeps } from './webhooks.context';
import { toDeliveryResponse, toWebhookResponse } from './webhooks.present';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  sendTestEvent,
  updateWebhook,
} from './webhooks.service';

/** What the webhooks' use cases need, from the app's. */
export function webhookDepsOf(deps: AppDeps): WebhookDeps {
  return {
    db: deps.database.db,
    queue: deps.queue,
    events: deps.events,
    logger: deps.logger,
    clock: deps.clock,
    settings: deps.config.webhooks,
    production: deps.config.env === 'production',
  };
}

/**
 * `/v1/workspace/webhooks` (the public API's `webhooks` resource) and the log and test delivery of each
 * (issue 19 item 5). Admin rights are checked in the services.
 */
export async function webhookRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const webhookDeps = webhookDepsOf(deps);
  const guarded = { onRequest: deps.auth.requireAuth };
  const caller = (request: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(request);
    return { userId: principal.userId, workspaceId: principal.workspaceId };
  };

  registerRoute(
    app,
    listWebhooksRoute,
    async ({ request, query }) => {
      const includeUsages = query.include_usages === 'true';
      const rows = await listWebhooks(webhookDeps, caller(request), includeUsages);
      return { webhooks: rows.map((row) => toWebhookResponse(row, includeUsages)) };
    },
    guarded,
  );
  registerRoute(
    app,
    createWebhookRoute,
    async ({ request, body }) => {
      const { row, secret } = await createWebhook(webhookDeps, caller(request), body);
      return { webhook_id: row.id, webhook_secret: secret };
    },
    guarded,
  );
  registerRoute(
    app,
    updateWebhookRoute,
    async ({ request, params, body }) => {
      await updateWebhook(webhookDeps, caller(request), params.webhook_id, body);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    deleteWebhookRoute,
    async ({ request, params }) => {
      await deleteWebhook(webhookDeps, caller(request), params.webhook_id);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    listWebhookDeliveriesRoute,
    async ({ request, params }) => ({
      deliveries: (await listDeliveries(webhookDeps, caller(request), params.webhook_id)).map(
        toDeliveryResponse,
      ),
    }),
    guarded,
  );
  registerRoute(
    app,
    testWebhookRoute,
    async ({ request, params }) => {
      const result = await sendTestEvent(webhookDeps, caller(request), params.webhook_id);
      return {
        success: result.ok,
        status_code: result.statusCode,
        error: result.error,
        duration_ms: result.durationMs,
      };
    },
    guarded,
  );
}
