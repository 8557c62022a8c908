import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken, setAccessToken } from '../access-token';
import {
  authChannelName,
  broadcastSignOut,
  clearAppCookies,
  clearCacheStorage,
  clearSessionData,
  isSignOutMessage,
  runSignOut,
} from './sign-out';

/** Plants a cookie the way a page script would. */
function writeCookie(text: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API, and sign-out must clear cookies set this way.
  document.cookie = text;
}

/** Makes `document.cookie` throw, as it does in a sandboxed frame without allow-same-origin. */
function blockCookies(): void {
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => {
      throw new DOMException(
        'The document is sandboxed and lacks the allow-same-origin flag.',
        'SecurityError',
      );
    },
    set: () => {
      throw new DOMException(
        'The document is sandboxed and lacks the allow-same-origin flag.',
        'SecurityError',
      );
    },
  });
}

afterEach(() => {
  // Drops the own property blockCookies may have put over Document.prototype's cookie accessor.
  Reflect.deleteProperty(document, 'cookie');
  localStorage.clear();
  setAccessToken(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const name of document.cookie.split(';').map((c) => c.split('=')[0]?.trim())) {
    if (name) writeCookie(`${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`);
  }
});

describe('sign-out (accounts §4)', () => {
  it("clears the app's xi_website_ cookies only, so a consent or opt-out cookie survives (accounts §9)", () => {
    writeCookie('xi_website_user=abc; path=/');
    writeCookie('xi_website_cache=1; path=/');
    writeCookie('ccpa_opt_out=true; path=/');
    writeCookie('analytics_consent=denied; path=/');
    expect(clearAppCookies().sort()).toEqual(['xi_website_cache', 'xi_website_user']);
    expect(document.cookie.split('; ').sort()).toEqual(['analytics_consent=denied', 'ccpa_opt_out=true']);
  });

  it('clears Cache Storage', async () => {
    const deleted: string[] = [];
    vi.stubGlobal('caches', {
      keys: async () => ['audio-v1', 'pages'],
      delete: async (key: string) => {
        deleted.push(key);
        return true;
      },
    });
    await clearCacheStorage();
    expect(deleted).toEqual(['audio-v1', 'pages']);
  });

  it('clearSessionData forgets the token and the xi: keys, and keeps the theme and other keys', async () => {
    setAccessToken('t1');
    localStorage.setItem('xi:theme', 'dark');
    localStorage.setItem('xi:verification-code', '123');
    localStorage.setItem('unrelated', 'stay');
    writeCookie('xi_website_user=abc; path=/');
    await clearSessionData();
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('xi:theme')).toBe('dark');
    expect(localStorage.getItem('xi:verification-code')).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('stay');
    expect(document.cookie).toBe('');
  });

  it('clearSessionData runs every step when one throws', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const deleted: string[] = [];
    vi.stubGlobal('caches', {
      keys: async () => ['audio-v1'],
      delete: async (key: string) => {
        deleted.push(key);
        return true;
      },
    });
    setAccessToken('t1');
    localStorage.setItem('xi:invite-code', 'abc');
    blockCookies();
    await expect(clearSessionData()).resolves.toBeUndefined();
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('xi:invite-code')).toBeNull();
    expect(deleted).toEqual(['audio-v1']);
    expect(warn).toHaveBeenCalledWith(
      'Sign-out: "clear cookies" failed; the sign-out goes on.',
      expect.any(DOMException),
    );
  });

  it('broadcasts {type: "sign-out"} through the channel it is given, and skips a missing one', () => {
    const posted: unknown[] = [];
    const channel = {
      postMessage: (message: unknown) => posted.push(message),
    } as unknown as BroadcastChannel;
    broadcastSignOut(channel);
    expect(posted).toEqual([{ type: 'sign-out' }]);
    expect(() => broadcastSignOut(null)).not.toThrow();
    expect(authChannelName).toBe('xi:auth');
  });

  it('runSignOut ends the server session first, while the token is still there, then clears and broadcasts', async () => {
    const steps: string[] = [];
    setAccessToken('t1');
    await runSignOut({
      endServerSession: async () => {
        steps.push(`end server session with ${getAccessToken()}`);
      },
      broadcast: () => steps.push(`broadcast with ${getAccessToken()}`),
    });
    expect(steps).toEqual(['end server session with t1', 'broadcast with null']);
  });

  it('runSignOut goes on when the server session cannot be ended, or the cookies cannot be read', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const broadcast = vi.fn();
    setAccessToken('t1');
    blockCookies();
    await expect(
      runSignOut({
        endServerSession: async () => {
          throw new TypeError('Failed to fetch');
        },
        broadcast,
      }),
    ).resolves.toBeUndefined();
    expect(getAccessToken()).toBeNull();
    expect(broadcast).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('recognises the sign-out message only', () => {
    expect(isSignOutMessage({ type: 'sign-out' })).toBe(true);
    expect(isSignOutMessage({ type: 'sign-in' })).toBe(false);
    expect(isSignOutMessage('sign-out')).toBe(false);
    expect(isSignOutMessage(null)).toBe(false);
  });
});
