import { setAccessToken } from '../access-token';
import { clearAppStorage, storageKeys } from '../storage-keys';

/** The BroadcastChannel that tells the other tabs of this origin about a sign-out (accounts §4). */
export const authChannelName = 'xi:auth';

/** Where a signed-out user goes (accounts §2 "After sign-out the user goes to the sign-in page"). */
export const signInPath = '/app/sign-in';

/** The prefix of the app's own cookies (accounts §9 "cookie cache keys prefixed xi_website_"). */
export const appCookiePrefix = 'xi_website_';

export interface SignOutMessage {
  type: 'sign-out';
}

/** Recognises the sign-out message among whatever else the channel may carry one day. */
export function isSignOutMessage(data: unknown): data is SignOutMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'sign-out';
}

/**
 * Expires the app's own readable cookies (`xi_website_…`, accounts §9) on every path prefix of this page.
 * Any other cookie stays: a consent or CCPA opt-out cookie (kept 360 days, accounts §9) must outlive a
 * sign-out, or signing out would quietly turn tracking back on for someone who opted out. httpOnly cookies
 * (the refresh token) are out of script's reach by design; see `SignOutSteps.endServerSession`.
 */
export function clearAppCookies(doc: Document = document): string[] {
  const names = doc.cookie
    .split(';')
    .map((part) => part.split('=')[0]?.trim() ?? '')
    .filter((name) => name.startsWith(appCookiePrefix));
  const segments = doc.location.pathname.split('/').filter(Boolean);
  const paths = ['/', ...segments.map((_, i) => `/${segments.slice(0, i + 1).join('/')}`)];
  for (const name of names) {
    for (const path of paths) doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}`;
  }
  return names;
}

/** Deletes every Cache Storage cache of this origin; a browser without it (or an insecure page) has none. */
export async function clearCacheStorage(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const keys = await caches.keys();
  await Promise.all(keys.map((key) => caches.delete(key)));
}

/**
 * Tells the other tabs to sign out, through the channel this tab already listens on: a BroadcastChannel
 * never receives its own messages, so the signing-out tab does not sign out a second time. No channel
 * (a browser without BroadcastChannel) means there is nobody to tell.
 */
export function broadcastSignOut(channel: BroadcastChannel | null): void {
  channel?.postMessage({ type: 'sign-out' } satisfies SignOutMessage);
}

/**
 * Runs one sign-out step and reports a failure instead of throwing it: the sign-out must reach its end
 * (broadcast, sign-in page) even where a step cannot run, e.g. `document.cookie` throwing in a sandboxed
 * frame. A failed step leaves less cleared; it never leaves a tab half signed in.
 */
export async function runSignOutStep(name: string, step: () => unknown): Promise<void> {
  try {
    await step();
  } catch (error) {
    console.warn(`Sign-out: "${name}" failed; the sign-out goes on.`, error);
  }
}

/**
 * Clears what this browser holds for the signed-in user (accounts §4 sign-out): the access token, the
 * `xi:` localStorage keys, the app's cookies and Cache Storage. Storage is shared by all tabs, so the tabs
 * told by the broadcast only need to forget their own in-memory token. Each step runs whatever the others do.
 */
export async function clearSessionData(): Promise<void> {
  await runSignOutStep('forget the access token', () => setAccessToken(null));
  // accounts §4 Theme — the theme is a device preference, not session data, so it outlives the sign-out.
  await runSignOutStep('clear local storage', () => clearAppStorage([storageKeys.theme]));
  await runSignOutStep('clear cookies', () => clearAppCookies());
  await runSignOutStep('clear Cache Storage', clearCacheStorage);
}

export interface SignOutSteps {
  /**
   * Ends the session on the server, first, while the refresh cookie still exists: the app passes
   * `POST /v1/auth/sign-out` (providers.tsx), which revokes the refresh token and clears its httpOnly
   * cookie, out of script's reach. Left out, only this browser is cleared. A failure is reported and the
   * local sign-out goes on.
   */
  endServerSession?: () => Promise<void>;
  /** Tells the other tabs (see broadcastSignOut). */
  broadcast: () => void;
}

/**
 * A sign-out started in this tab (accounts §4): end the server session, clear this browser, tell the other
 * tabs. A failing step is reported and skipped (runSignOutStep), so this never rejects; the caller then
 * applies the signed-out state and goes to the sign-in page.
 */
export async function runSignOut({ endServerSession, broadcast }: SignOutSteps): Promise<void> {
  // A server that cannot be reached must not keep the user signed in on this device.
  if (endServerSession) await runSignOutStep('end the server session', endServerSession);
  await clearSessionData();
  await runSignOutStep('tell the other tabs', broadcast);
}
