import { testWebhookRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateWebhooks } from './webhooks-query-keys';

/** `POST /v1/workspace/webhooks/{id}/test`: sends a signed `webhook.test` now and answers the result. */
export function testWebhook(webhookId: string) {
  return apiRequest(testWebhookRoute, { params: { webhook_id: webhookId } });
}

export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testWebhook,
    // The attempt is in the log now.
    onSettled: () => {
      void invalidateWebhooks(queryClient);
    },
  });
}
