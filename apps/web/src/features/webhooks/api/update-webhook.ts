import { type UpdateWebhookRequest, updateWebhookRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateWebhooks } from './webhooks-query-keys';

export interface UpdateWebhookInput {
  webhookId: string;
  body: UpdateWebhookRequest;
}

/** `PATCH /v1/workspace/webhooks/{id}`: renames, re-points, subscribes, or switches it off and on. */
export function updateWebhook({ webhookId, body }: UpdateWebhookInput) {
  return apiRequest(updateWebhookRoute, { params: { webhook_id: webhookId }, body });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSuccess: () => {
      void invalidateWebhooks(queryClient);
    },
  });
}
