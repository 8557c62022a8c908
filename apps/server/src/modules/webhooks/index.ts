/** The webhooks module's front door: what other modules may do (issue 26 item 1; the rest is its own). */
export { findWorkspaceWebhookAt, requireWorkspaceWebhook } from './webhooks.service';
