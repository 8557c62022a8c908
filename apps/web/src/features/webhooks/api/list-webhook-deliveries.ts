import { listWebhookDeliveriesRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { webhooksQueryKeys } from './webhooks-query-keys';

/** `GET /v1/workspace/webhooks/{id}/deliveries`: the webhook's last attempts, newest first. */
export function listWebhookDeliveries(webhookId: string, signal?: AbortSignal) {
  return apiRequest(listWebhookDeliveriesRoute, { params: { webhook_id: webhookId }, signal });
}

export function listWebhookDeliveriesQueryOptions(webhookId: string) {
  return queryOptions({
    queryKey: webhooksQueryKeys.deliveries(webhookId),
    queryFn: ({ signal }) => listWebhookDeliveries(webhookId, signal),
  });
}

/** The log while it is open; it looks again every 5 s, for retries arriving in the background. */
export function useWebhookDeliveries(webhookId: string) {
  return useQuery({ ...listWebhookDeliveriesQueryOptions(webhookId), refetchInterval: 5000 });
}
