import { afterEach, describe, expect, it } from 'vitest';
import { clearAppCookies } from '../../lib/auth/sign-out';
import { expireCookie, readCookie, writeCookie, writeJsonCookie } from '../../lib/cookies';
import { makeUser } from '../../test/user-fixture';
import { cachedUserCookieName, readCachedUser, saveCachedUser, toCachedUser } from './cached-user';

afterEach(() => expireCookie(cachedUserCookieName));

describe('the cached user cookie (accounts §3)', () => {
  it('keeps exactly ccpa_opt_out, user_id, workspace_id and email, and reads them back', () => {
    const user = makeUser({ email: 'ada+x@example.test', ccpa_opt_out: true });
    const cached = toCachedUser(user);
    expect(cached).toEqual({
      ccpa_opt_out: true,
      user_id: user.user_id,
      workspace_id: user.workspace_id,
      email: 'ada+x@example.test',
    });
    saveCachedUser(cached);
    expect(readCookie(cachedUserCookieName)).toBeDefined();
    expect(readCachedUser()).toEqual(cached);
  });

  it('answers null for no cookie, a cookie that is not JSON, or one missing a field', () => {
    expect(readCachedUser()).toBeNull();
    writeCookie(cachedUserCookieName, '%7Bnot-json', 60);
    expect(readCachedUser()).toBeNull();
    writeJsonCookie(cachedUserCookieName, { user_id: 'u' }, 60);
    expect(readCachedUser()).toBeNull();
  });

  it('is an xi_website_ cache cookie, so a sign-out clears it', () => {
    saveCachedUser(toCachedUser(makeUser()));
    expect(clearAppCookies()).toContain(cachedUserCookieName);
    expect(readCachedUser()).toBeNull();
  });
});
