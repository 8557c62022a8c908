import { deleteWebhookRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateWebhooks } from './webhooks-query-keys';

/** `DELETE /v1/workspace/webhooks/{id}`: the webhook and its delivery log. */
export function deleteWebhook(webhookId: string) {
  return apiRequest(deleteWebhookRoute, { params: { webhook_id: webhookId } });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => {
      void invalidateWebhooks(queryClient);
    },
  });
}
