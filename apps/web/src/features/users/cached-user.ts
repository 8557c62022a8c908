import { CACHE_COOKIE_MAX_AGE_SECONDS, CachedUser, type UserResponse } from '@parla/contracts';
import { appCookiePrefix } from '../../lib/auth/sign-out';
import { readJsonCookie, writeJsonCookie } from '../../lib/cookies';

/**
 * The cached user cookie (accounts §3: ccpa_opt_out, user_id, workspace_id, email), kept 7 days (§9 cache
 * lifetime). A cache cookie with the `xi_website_` prefix, so a sign-out clears it with the others; what is
 * left after a session merely lapsed lets the sign-in page greet the user with their email filled in.
 */
export const cachedUserCookieName = `${appCookiePrefix}cached_user`;

/** The cookie's fields of a user document. */
export function toCachedUser(user: UserResponse): CachedUser {
  return {
    ccpa_opt_out: user.ccpa_opt_out,
    user_id: user.user_id,
    workspace_id: user.workspace_id,
    email: user.email,
  };
}

/** Writes (or refreshes) the cookie for the signed-in user. */
export function saveCachedUser(user: CachedUser, doc: Document = document): void {
  writeJsonCookie(cachedUserCookieName, user, CACHE_COOKIE_MAX_AGE_SECONDS, doc);
}

/** The cached user, or null when there is none or it cannot be read. */
export function readCachedUser(doc: Document | undefined = globalThis.document): CachedUser | null {
  if (!doc) return null;
  const parsed = CachedUser.safeParse(readJsonCookie(cachedUserCookieName, doc));
  return parsed.success ? parsed.data : null;
}
