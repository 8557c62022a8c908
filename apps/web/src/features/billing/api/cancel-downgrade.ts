import { cancelDowngradeRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateBilling } from './billing-query-keys';

/** `POST /v1/billing/cancel-downgrade` (accounts §4, §7): Keep the current plan: drop the scheduled downgrade. */
export function cancelDowngrade(idempotencyKey?: string): Promise<{ status: 'ok' }> {
  return apiRequest(cancelDowngradeRoute, {
    body: idempotencyKey ? { idempotency_key: idempotencyKey } : {},
  });
}

export function useCancelDowngrade() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (idempotencyKey?: string) => cancelDowngrade(idempotencyKey),
    onSuccess: () => invalidateBilling(queryClient),
  });
}
