import { getUserRoute, type UserResponse } from '@parla/contracts';
import { getAccessToken } from '../access-token';
import { apiRequest } from '../api-client';
import { isHttpError } from '../http-error';
import { mayHaveSession, refreshAccessToken } from '../session-refresh';

export type SessionProbeResult =
  | { status: 'signedIn'; user: UserResponse }
  | { status: 'signedOut' }
  /** The server could not say (network, 5xx, a body that breaks the contract): ask again later. */
  | { status: 'unavailable'; error: unknown };

/** The answer that means "no session": 401 (the token, or its user, is no longer accepted); final, never retried. */
const signedOutStatuses: ReadonlySet<number> = new Set([401]);

/**
 * Asks whether this page has a session (accounts §4). Without an access token (a new page), the refresh
 * cookie is exchanged for one when this browser holds a sign-in; then `GET /v1/user` answers with the
 * user (signed in) or 401 (signed out). Never rejects: whatever else goes wrong is `unavailable`.
 */
export async function probeSession(signal?: AbortSignal): Promise<SessionProbeResult> {
  if (!getAccessToken()) {
    // A new page: the access token lived in the previous page's memory; the refresh cookie may remain.
    if (!mayHaveSession()) return { status: 'signedOut' };
    try {
      if (!(await refreshAccessToken())) return { status: 'signedOut' };
    } catch (error) {
      return { status: 'unavailable', error };
    }
  }
  try {
    // `GET /v1/user` straight through the client: the sign-in state sits below the features (features/users
    // wraps the same route for the pages' queries).
    const user = await apiRequest(getUserRoute, { signal });
    return { status: 'signedIn', user };
  } catch (error) {
    if (isHttpError(error) && signedOutStatuses.has(error.status)) return { status: 'signedOut' };
    return { status: 'unavailable', error };
  }
}
