import type { UserResponse } from '@parla/contracts';
import { getUser } from '../../features/users/api/get-user';
import { getAccessToken } from '../../lib/access-token';
import { isHttpError } from '../../lib/http-error';

export type SessionProbeResult =
  | { status: 'signedIn'; user: UserResponse }
  | { status: 'signedOut' }
  /** The server could not say (network, 5xx, a body that breaks the contract): ask again later. */
  | { status: 'unavailable'; error: unknown };

/**
 * The answers that mean "no session": 401 (the token is not accepted) and 404 (no such user, or a server
 * without `GET /v1/user` yet: until the accounts issue adds it, the server answers `not_found`). Both are
 * final answers, so they are never retried.
 */
const signedOutStatuses: ReadonlySet<number> = new Set([401, 404]);

/**
 * Asks whether this page has a session (accounts §4): no access token means signed out; with one,
 * `GET /v1/user` answers with the user (signed in) or 401/404 (signed out). Never rejects: whatever else
 * goes wrong is `unavailable`. Sign-in itself arrives with the accounts issue.
 */
export async function probeSession(signal?: AbortSignal): Promise<SessionProbeResult> {
  if (!getAccessToken()) return { status: 'signedOut' };
  try {
    const user = await getUser(signal);
    return { status: 'signedIn', user };
  } catch (error) {
    if (isHttpError(error) && signedOutStatuses.has(error.status)) return { status: 'signedOut' };
    return { status: 'unavailable', error };
  }
}
