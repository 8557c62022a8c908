import { applyDiscountRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateBilling } from './billing-query-keys';

/** `POST /v1/billing/apply-discount` (accounts §7): a discount code on the next invoice. */
export function applyDiscount(discountCode: string): Promise<{ status: 'ok' }> {
  return apiRequest(applyDiscountRoute, {
    body: { discount_code: discountCode, idempotency_key: crypto.randomUUID() },
  });
}

export function useApplyDiscount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: applyDiscount, onSuccess: () => invalidateBilling(queryClient) });
}
