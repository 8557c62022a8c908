import { refreshSessionRoute, SessionResponse } from '@parla/contracts';
import { setAccessToken } from './access-token';
import { readStorage, removeStorage, storageKeys, writeStorage } from './storage-keys';

/** The Web Lock that lets one tab at a time exchange the refresh cookie. */
export const refreshLockName = 'xi:refresh';

/** Thrown when the server could not answer (network, 5xx): the session may well still be alive. */
export class RefreshUnavailableError extends Error {}

/** Notes that this browser holds a sign-in, after a session arrives (sign-in, sign-up, refresh). */
export function acceptSession(session: SessionResponse): void {
  writeStorage(storageKeys.hasSession, '1');
  setAccessToken(session.access_token);
}

async function exchangeRefreshCookie(): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(refreshSessionRoute.path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    throw new RefreshUnavailableError('Network error', { cause: error });
  }
  if (response.status === 401) {
    removeStorage(storageKeys.hasSession);
    setAccessToken(null);
    return null;
  }
  if (!response.ok)
    throw new RefreshUnavailableError(`The session refresh failed (HTTP ${response.status}).`);
  const session = SessionResponse.safeParse(await response.json().catch(() => undefined));
  if (!session.success)
    throw new RefreshUnavailableError('The session refresh answered something unreadable.');
  acceptSession(session.data);
  return session.data.access_token;
}

let inFlight: Promise<string | null> | null = null;

/**
 * Exchanges the httpOnly refresh cookie for a new access token (accounts §4, issue 3 "Tokens"). The cookie
 * rotates on every use and a rotated cookie presented again revokes the whole sign-in, so two tabs must
 * never refresh at once: the exchange runs under a Web Lock shared by every tab of the origin (and calls
 * within one tab share one exchange). Resolves the new token, or null when the sign-in is over; rejects
 * with RefreshUnavailableError when the server could not tell.
 */
export function refreshAccessToken(): Promise<string | null> {
  inFlight ??= (async () => {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    return locks ? locks.request(refreshLockName, exchangeRefreshCookie) : exchangeRefreshCookie();
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** Whether this browser may hold a sign-in worth refreshing (see storageKeys.hasSession). */
export function mayHaveSession(): boolean {
  return readStorage(storageKeys.hasSession) === '1';
}
