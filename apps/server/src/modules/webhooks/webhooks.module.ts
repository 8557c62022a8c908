import { defineModule, moduleJob } from '../../platform/module';
import { subscribeWebhooks } from './webhooks.events';
import { deliverWebhookJob } from './webhooks.jobs';
import { webhookDepsOf, webhookRoutes } from './webhooks.routes';
import { speechToTextWebhookIds } from './webhooks.service';
import * as tables from './webhooks.tables';

/** Workspace webhooks: the signed delivery of the workspace's events, retried, logged, switched off when failing. */
export const webhooksModule = defineModule({
  name: 'webhooks',
  routes: [webhookRoutes],
  jobs: [moduleJob(deliverWebhookJob, webhookDepsOf)],
  subscribe: subscribeWebhooks,
  tables,
  workspaceFields: async (db, workspaceId) => ({
    speech_to_text_webhook_ids: await speechToTextWebhookIds(db, workspaceId),
  }),
});
