import { defineModule } from '../../platform/module';
import { subscribeWebhooks } from './webhooks.events';
import { deliverWebhookJob } from './webhooks.jobs';
import { webhookRoutes } from './webhooks.routes';
import * as tables from './webhooks.tables';

/** Workspace webhooks: the signed delivery of the workspace's events, retried, logged, switched off when failing. */
export const webhooksModule = defineModule({
  name: 'webhooks',
  routes: [webhookRoutes],
  jobs: [deliverWebhookJob],
  subscribe: subscribeWebhooks,
  tables,
});
