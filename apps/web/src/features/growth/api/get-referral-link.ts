import { getReferralLinkRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/user/referral-link` (accounts §7): the user's link, made on first ask. */
export function getReferralLink(signal?: AbortSignal): Promise<{ referral_link: string }> {
  return apiRequest(getReferralLinkRoute, { signal });
}

export function getReferralLinkQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'me', 'referral-link'] as const,
    queryFn: ({ signal }) => getReferralLink(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useReferralLink() {
  return useQuery(getReferralLinkQueryOptions());
}
