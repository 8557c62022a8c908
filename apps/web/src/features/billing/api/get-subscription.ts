import { type ExtendedSubscriptionResponse, getSubscriptionRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { billingQueryKeys } from './billing-query-keys';

/** `GET /v1/user/subscription` (accounts §7): tier, status, quota, next invoice and pending change. */
export function getSubscription(signal?: AbortSignal): Promise<ExtendedSubscriptionResponse> {
  return apiRequest(getSubscriptionRoute, { signal });
}

export function getSubscriptionQueryOptions() {
  return queryOptions({
    queryKey: billingQueryKeys.subscription,
    queryFn: ({ signal }) => getSubscription(signal),
  });
}

/** The workspace's subscription; pass `enabled: false` while nobody is signed in. */
export function useSubscription({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getSubscriptionQueryOptions(), enabled });
}
