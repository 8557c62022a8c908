/** The webhooks feature's front door: the pieces the webhooks page composes. */

export { useWebhooks } from './api/list-webhooks';
export { DeleteWebhookDialog } from './components/delete-webhook-dialog';
export { WebhookFormDialog } from './components/webhook-form-dialog';
export { WebhookList } from './components/webhook-list';
