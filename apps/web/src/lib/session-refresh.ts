import { refreshSessionRoute, SessionResponse } from '@parla/contracts';
import { setAccessToken } from './access-token';
import { readStorage, removeStorage, safeLocalStorage, storageKeys, writeStorage } from './storage-keys';

/** The Web Lock that lets one tab at a time exchange the refresh cookie. */
export const refreshLockName = 'xi:refresh';

/** Thrown when the server could not answer (network, 5xx): the session may well still be alive. */
export class RefreshUnavailableError extends Error {}

/** Notes that this browser holds a sign-in, after a session arrives (sign-in, sign-up, refresh). */
export function acceptSession(session: SessionResponse): void {
  writeStorage(storageKeys.hasSession, '1');
  setAccessToken(session.access_token);
}

/** Where index.html leaves the exchange it starts while the app's code downloads. */
export const earlyRefreshGlobal = '__parlaRefresh';

/**
 * The exchange index.html started before the app's code ran (under this lock, in a browser holding a
 * sign-in), once: the page's first exchange takes its answer instead of asking again (issue 26 item 7).
 */
function takeEarlyExchange(): Promise<Response> | undefined {
  if (typeof window === 'undefined') return undefined;
  const holder = window as unknown as Record<string, Promise<Response> | undefined>;
  const early = holder[earlyRefreshGlobal];
  delete holder[earlyRefreshGlobal];
  return early;
}

async function exchangeRefreshCookie(): Promise<string | null> {
  let response: Response;
  try {
    response = await (takeEarlyExchange() ??
      fetch(refreshSessionRoute.path, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
      }));
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

/** How long a tab may hold the storage lock before others take it over (a closed tab never releases). */
const storageLockTtlMs = 10_000;

/**
 * The fallback where the Web Locks API is missing (it exists only in secure contexts, so a self-host on
 * plain http:// has none): a lock record in localStorage. Not atomic like Web Locks, so the tab writes,
 * waits a moment and checks it still holds the record before going on; a stale record expires.
 */
export async function withStorageLock<T>(
  name: string,
  run: () => Promise<T>,
  storage: Storage | undefined = safeLocalStorage(),
): Promise<T> {
  if (!storage) return run();
  const key = `xi:lock:${name}`;
  const me = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const deadline = Date.now() + storageLockTtlMs * 2;
  for (;;) {
    const [, expires] = (storage.getItem(key) ?? '').split('|');
    if (!expires || Number(expires) < Date.now()) {
      storage.setItem(key, `${me}|${Date.now() + storageLockTtlMs}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (storage.getItem(key)?.startsWith(`${me}|`)) break;
    }
    if (Date.now() > deadline) break; // give up waiting rather than never refresh
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    return await run();
  } finally {
    if (storage.getItem(key)?.startsWith(`${me}|`)) storage.removeItem(key);
  }
}

let inFlight: Promise<string | null> | null = null;

/**
 * Exchanges the httpOnly refresh cookie for a new access token (accounts §4, issue 3 "Tokens"). The cookie
 * rotates on every use and a rotated cookie presented again revokes the whole sign-in, so two tabs must
 * never refresh at once: the exchange runs under a Web Lock shared by every tab of the origin, or the
 * localStorage lock where Web Locks are missing (and calls within one tab share one exchange). Resolves the new token, or null when the sign-in is over; rejects
 * with RefreshUnavailableError when the server could not tell.
 */
export function refreshAccessToken(): Promise<string | null> {
  inFlight ??= (async () => {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    return locks
      ? locks.request(refreshLockName, exchangeRefreshCookie)
      : withStorageLock(refreshLockName, exchangeRefreshCookie);
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** Whether this browser may hold a sign-in worth refreshing (see storageKeys.hasSession). */
export function mayHaveSession(): boolean {
  return readStorage(storageKeys.hasSession) === '1';
}
