import { getHostedSessionRoute, type HostedSession } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { billingQueryKeys } from './billing-query-keys';

/** `GET /v1/billing/sessions/:session_id`: a hosted page's session; the id is its secret, no sign-in. */
export function getHostedSession(sessionId: string, signal?: AbortSignal): Promise<HostedSession> {
  return apiRequest(getHostedSessionRoute, { params: { session_id: sessionId }, signal });
}

export function getHostedSessionQueryOptions(sessionId: string) {
  return queryOptions({
    queryKey: billingQueryKeys.hostedSession(sessionId),
    queryFn: ({ signal }) => getHostedSession(sessionId, signal),
    // The page acts on the session; a refetch on focus would swap the step under the user.
    refetchOnWindowFocus: false,
  });
}

export function useHostedSession(sessionId: string) {
  return useQuery(getHostedSessionQueryOptions(sessionId));
}
