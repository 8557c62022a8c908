import type { UserResponse } from '@parla/contracts';
import { subscribeAccessToken } from '../access-token';
import type { AuthStore } from './auth-store';
import { probeSession, type SessionProbeResult } from './probe-session';

/** The first wait before asking the server again, and the longest. */
const firstRetryDelayMs = 1000;
const maxRetryDelayMs = 30_000;

/** The wait before retry number `attempt` (0-based): 1 s, 2 s, 4 s … doubling up to 30 s. */
export function getProbeRetryDelayMs(attempt: number): number {
  return Math.min(firstRetryDelayMs * 2 ** attempt, maxRetryDelayMs);
}

/**
 * Keeps the store's sign-in state fed (accounts §4): probes the session now and whenever the access token
 * changes. While the state is still `unknown`, a probe that cannot tell (network, 5xx, a broken body) is
 * tried again with backoff, since otherwise nothing would ever leave `unknown`; an answer, a token change or
 * the returned stop function ends the retries. Once signed in or out, a failed probe keeps the state as is.
 */
export function watchSession(
  store: AuthStore,
  probe: (signal: AbortSignal) => Promise<SessionProbeResult> = probeSession,
  /**
   * Receives the user of each signed-in answer before the store hears of it: the app keeps it as the
   * user query's data (lib/query-client.ts userQueryKey), so the pages that render on the sign-in find
   * the user there and do not ask `GET /v1/user` again (issue 26 item 7).
   */
  onUser?: (user: UserResponse) => void,
): () => void {
  let latest = 0;
  let attempt = 0;
  let controller: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const runProbe = async () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    latest += 1;
    const current = latest;
    controller?.abort();
    controller = new AbortController();
    const result = await probe(controller.signal).catch(
      (error: unknown): SessionProbeResult => ({ status: 'unavailable', error }),
    );
    if (current !== latest) return; // a newer token, or the stop, has taken over
    if (result.status === 'signedIn') {
      attempt = 0;
      onUser?.(result.user);
      store.signalSignedIn(result.user);
    } else if (result.status === 'signedOut') {
      attempt = 0;
      store.signalSignedOut();
    } else if (store.getState().status === 'unknown') {
      retryTimer = setTimeout(() => {
        if (store.getState().status === 'unknown') void runProbe();
      }, getProbeRetryDelayMs(attempt));
      attempt += 1;
    }
  };

  void runProbe();
  const unsubscribe = subscribeAccessToken(() => {
    attempt = 0;
    void runProbe();
  });
  return () => {
    unsubscribe();
    latest += 1;
    controller?.abort();
    clearTimeout(retryTimer);
  };
}
