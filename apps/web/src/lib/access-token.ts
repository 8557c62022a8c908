/**
 * The access token lives in memory only (ARCHITECTURE "Security baseline": short-lived access tokens,
 * refresh token in an httpOnly cookie), so a script that reads storage cannot steal it.
 */
let accessToken: string | null = null;
const listeners = new Set<(token: string | null) => void>();

/** The bearer token sent with API requests, or null when signed out. */
export function getAccessToken(): string | null {
  return accessToken;
}

/** Replaces the token (sign-in, refresh) or forgets it (null, on sign-out) and tells the subscribers. */
export function setAccessToken(token: string | null): void {
  if (token === accessToken) return;
  accessToken = token;
  for (const listener of listeners) listener(token);
}

/** Calls `listener` on every token change; returns the unsubscribe function. */
export function subscribeAccessToken(listener: (token: string | null) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Runs `run` once there is a token: at once when there is one, else at the first sign-in or refresh that
 * brings one (a page's data may then be asked for while the session's user still loads). Returns a
 * function that cancels the wait.
 */
export function whenAccessToken(run: () => void): () => void {
  if (accessToken) {
    run();
    return () => {};
  }
  const unsubscribe = subscribeAccessToken((token) => {
    if (!token) return;
    unsubscribe();
    run();
  });
  return unsubscribe;
}
