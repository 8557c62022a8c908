import { type ConsentStateResponse, getConsentRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** Under the user's key, so whatever refreshes the user refreshes the consent state too. */
export const consentQueryKey = ['users', 'me', 'consent'] as const;

/** `GET /v1/user/consent`: analytics consent, CCPA opt-out and biometric terms (accounts §4). */
export function getConsent(signal?: AbortSignal): Promise<ConsentStateResponse> {
  return apiRequest(getConsentRoute, { signal });
}

export function getConsentQueryOptions() {
  return queryOptions({ queryKey: consentQueryKey, queryFn: ({ signal }) => getConsent(signal) });
}

/** The signed-in user's consent state; pass `enabled: false` while nobody is signed in. */
export function useConsent({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getConsentQueryOptions(), enabled });
}
