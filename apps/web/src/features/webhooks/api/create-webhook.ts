import { type CreateWebhookRequest, createWebhookRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateWebhooks } from './webhooks-query-keys';

/** `POST /v1/workspace/webhooks`: the new webhook's id and signing secret, in this answer only. */
export function createWebhook(body: CreateWebhookRequest) {
  return apiRequest(createWebhookRoute, { body });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: () => {
      void invalidateWebhooks(queryClient);
    },
  });
}
