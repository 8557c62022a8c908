import { getUserRoute, type UserResponse } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { userQueryKey } from '../../../lib/query-client';

/**
 * `GET /v1/user` (accounts §7): the user of the bearer token. Throws HttpError like every API call; a 401
 * (no session) or 404 (no such user, or a server without the accounts routes yet) is the caller's to read.
 */
export function getUser(signal?: AbortSignal): Promise<UserResponse> {
  return apiRequest(getUserRoute, { signal });
}

/**
 * Query options of the signed-in user; sign-out clears the whole query cache, this entry with it. The
 * session probe's answer fills the same entry (lib/query-client.ts userQueryKey): one request on sign-in.
 */
export function getUserQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: ({ signal }) => getUser(signal),
  });
}

/** The signed-in user, for pages shown only when signed in (the sign-in state itself is useAuth's). */
export function useUser() {
  return useQuery(getUserQueryOptions());
}
