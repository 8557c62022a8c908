import { listWebhooksRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { webhooksQueryKeys } from './webhooks-query-keys';

/** `GET /v1/workspace/webhooks`: the workspace's webhooks, with their status and last failure. */
export function listWebhooks(signal?: AbortSignal) {
  return apiRequest(listWebhooksRoute, { query: {}, signal });
}

export function listWebhooksQueryOptions() {
  return queryOptions({ queryKey: webhooksQueryKeys.list, queryFn: ({ signal }) => listWebhooks(signal) });
}

export function useWebhooks() {
  return useQuery(listWebhooksQueryOptions());
}
