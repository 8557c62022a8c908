import { type SessionUser, sessionProbeRoute } from '@parla/contracts/session-probe';
import { getAccessToken } from '../../lib/access-token';
import { apiRequest } from '../../lib/api-client';
import { isHttpError } from '../../lib/http-error';

export type SessionProbeResult =
  | { status: 'signedIn'; user: SessionUser }
  | { status: 'signedOut' }
  /** The server could not say (network, 5xx): the sign-in state stays as it is. */
  | { status: 'unavailable'; error: unknown };

/**
 * Asks whether this page has a session: no access token means signed out; with one, `GET /v1/user`
 * answers 200 (signed in) or 401 (signed out). Sign-in itself arrives with the accounts issue.
 */
export async function probeSession(signal?: AbortSignal): Promise<SessionProbeResult> {
  if (!getAccessToken()) return { status: 'signedOut' };
  try {
    const user = await apiRequest(sessionProbeRoute, { signal });
    return { status: 'signedIn', user };
  } catch (error) {
    if (isHttpError(error) && error.status === 401) return { status: 'signedOut' };
    return { status: 'unavailable', error };
  }
}
