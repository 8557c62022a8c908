import { cancelSubscriptionRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateBilling } from './billing-query-keys';

/** `POST /v1/billing/cancel-subscription` (accounts §4, §7): Cancel at the end of the period. */
export function cancelSubscription(idempotencyKey?: string): Promise<{ status: 'ok' }> {
  return apiRequest(cancelSubscriptionRoute, {
    body: idempotencyKey ? { idempotency_key: idempotencyKey } : {},
  });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (idempotencyKey?: string) => cancelSubscription(idempotencyKey),
    onSuccess: () => invalidateBilling(queryClient),
  });
}
