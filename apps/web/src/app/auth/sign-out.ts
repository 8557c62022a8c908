import { setAccessToken } from '../../lib/access-token';
import { clearAppStorage } from '../../lib/storage-keys';

/** The BroadcastChannel that tells the other tabs of this origin about a sign-out (accounts §4). */
export const authChannelName = 'xi:auth';

/** Where a signed-out user goes (accounts §2 "After sign-out the user goes to the sign-in page"). */
export const signInPath = '/app/sign-in';

export interface SignOutMessage {
  type: 'sign-out';
}

/** Recognises the sign-out message among whatever else the channel may carry one day. */
export function isSignOutMessage(data: unknown): data is SignOutMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'sign-out';
}

/**
 * Expires every cookie that script can see, on every path prefix of this page. httpOnly cookies (the
 * refresh token) are out of reach by design; the server's sign-out call clears those.
 */
export function clearReadableCookies(doc: Document = document): string[] {
  const names = doc.cookie
    .split(';')
    .map((part) => part.split('=')[0]?.trim() ?? '')
    .filter((name) => name !== '');
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

/** Tells the other tabs to sign out; quietly does nothing where BroadcastChannel is missing. */
export function broadcastSignOut(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(authChannelName);
  channel.postMessage({ type: 'sign-out' } satisfies SignOutMessage);
  channel.close();
}

/**
 * Clears what this browser holds for the signed-in user (accounts §4 sign-out): the access token, every
 * `xi:` localStorage key, readable cookies and Cache Storage. Storage is shared by all tabs, so the tabs
 * told by the broadcast only need to forget their own in-memory token.
 */
export async function clearSessionData(): Promise<void> {
  setAccessToken(null);
  clearAppStorage();
  clearReadableCookies();
  try {
    await clearCacheStorage();
  } catch {
    // A cache that refuses deletion holds no session; the sign-out goes on.
  }
}
