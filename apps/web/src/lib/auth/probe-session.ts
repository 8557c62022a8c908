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
    // The new token started a newer probe (watchSession), which asks for the user: this one does not too.
    if (signal?.aborted) return { status: 'unavailable', error: signal.reason };
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

/**
 * Starts the session's cookie exchange at once, as the app's script runs (main.tsx), before React renders
 * and while the page's own code still loads; the session probe joins it (refreshAccessToken shares one
 * exchange per tab) instead of starting it after the first render, so `GET /v1/user` and the page's data
 * are asked for one round trip sooner (issue 26 item 7). Nothing to do without a sign-in in this browser.
 * A failure is the probe's to meet: it asks again.
 */
export function startSessionEarly(): void {
  if (getAccessToken() || !mayHaveSession()) return;
  refreshAccessToken().catch(() => undefined);
}
