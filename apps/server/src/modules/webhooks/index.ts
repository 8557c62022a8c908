/** The webhooks module's front door: what the process entry and other modules use (issue 17; the rest is its own). */
export { provideWebhookDeps } from './webhooks.jobs';
export { requireWorkspaceWebhook } from './webhooks.service';
