import { renewSubscriptionRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateBilling } from './billing-query-keys';

/** `POST /v1/billing/renew-subscription` (accounts §4, §7): Undo a cancellation before the period ends. */
export function renewSubscription(idempotencyKey?: string): Promise<{ status: 'ok' }> {
  return apiRequest(renewSubscriptionRoute, {
    body: idempotencyKey ? { idempotency_key: idempotencyKey } : {},
  });
}

export function useRenewSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (idempotencyKey?: string) => renewSubscription(idempotencyKey),
    onSuccess: () => invalidateBilling(queryClient),
  });
}
