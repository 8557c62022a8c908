import { changeSubscriptionRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { invalidateBilling } from './billing-query-keys';

export type ChangeSubscriptionInput = z.input<NonNullable<(typeof changeSubscriptionRoute)['body']>>;

/** `POST /v1/billing/change-subscription` (accounts §7): upgrade now (prorated) or downgrade at the period end. */
export function changeSubscription(body: ChangeSubscriptionInput) {
  return apiRequest(changeSubscriptionRoute, { body });
}

export function useChangeSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeSubscription,
    onSuccess: () => invalidateBilling(queryClient),
  });
}
