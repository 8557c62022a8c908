/** history/voices §4: how the player waits for a new history item to be stored. */
export const historyPolling = {
  attempts: 10,
  firstDelayMs: 1000,
  nextDelayMs: 5000,
} as const;

/** The wait before each try: 1 s before the first, 5 s before each of the other nine (history/voices §4). */
export function getHistoryPollDelays(
  attempts: number = historyPolling.attempts,
  firstDelayMs: number = historyPolling.firstDelayMs,
  nextDelayMs: number = historyPolling.nextDelayMs,
): number[] {
  return Array.from({ length: Math.max(0, attempts) }, (_, i) => (i === 0 ? firstDelayMs : nextDelayMs));
}

/** Waits `ms`; an abort ends the wait early (resolving false). */
function wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Asks `findItem` on the §4 schedule until it answers true, and says whether it ever did. A try that
 * throws (a 404 while the item is not stored yet, a network blip) counts as "not yet". An abort stops
 * between tries and answers false.
 */
export async function pollHistoryItem(
  findItem: (signal: AbortSignal | undefined) => Promise<boolean>,
  options: { signal?: AbortSignal; delays?: readonly number[] } = {},
): Promise<boolean> {
  const { signal, delays = getHistoryPollDelays() } = options;
  for (const delay of delays) {
    if (!(await wait(delay, signal))) return false;
    try {
      if (await findItem(signal)) return true;
    } catch {
      // Not stored yet (or not reachable right now): the next try may find it.
    }
    if (signal?.aborted) return false;
  }
  return false;
}
