import { getReferralsRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/user/referrals`: how many accounts signed up through the user's link. */
export function getReferrals(signal?: AbortSignal): Promise<{ count: number }> {
  return apiRequest(getReferralsRoute, { signal });
}

export function getReferralsQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'me', 'referrals'] as const,
    queryFn: ({ signal }) => getReferrals(signal),
  });
}

export function useReferrals() {
  return useQuery(getReferralsQueryOptions());
}
