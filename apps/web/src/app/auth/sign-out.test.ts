import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken, setAccessToken } from '../../lib/access-token';
import {
  authChannelName,
  broadcastSignOut,
  clearCacheStorage,
  clearReadableCookies,
  clearSessionData,
  isSignOutMessage,
} from './sign-out';

/** Plants a cookie the way a page script would. */
function writeCookie(text: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API, and sign-out must clear cookies set this way.
  document.cookie = text;
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  for (const name of document.cookie.split(';').map((c) => c.split('=')[0]?.trim())) {
    if (name) writeCookie(`${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`);
  }
});

describe('sign-out (accounts §4)', () => {
  it('clears readable cookies', () => {
    writeCookie('xi_website_ccpa=1; path=/');
    writeCookie('other=2; path=/');
    expect(document.cookie).toContain('other=2');
    expect(clearReadableCookies().sort()).toEqual(['other', 'xi_website_ccpa']);
    expect(document.cookie).toBe('');
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

  it('clearSessionData forgets the token and every xi: key, and keeps other keys', async () => {
    setAccessToken('t1');
    localStorage.setItem('xi:theme', 'dark');
    localStorage.setItem('xi:verification-code', '123');
    localStorage.setItem('unrelated', 'stay');
    writeCookie('xi_website_user=abc; path=/');
    await clearSessionData();
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('xi:theme')).toBeNull();
    expect(localStorage.getItem('xi:verification-code')).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('stay');
    expect(document.cookie).toBe('');
  });

  it('broadcasts {type: "sign-out"} on the xi:auth channel', () => {
    const posted: unknown[] = [];
    class FakeChannel {
      constructor(readonly name: string) {}
      postMessage(message: unknown) {
        posted.push([this.name, message]);
      }
      close() {}
    }
    vi.stubGlobal('BroadcastChannel', FakeChannel);
    broadcastSignOut();
    expect(authChannelName).toBe('xi:auth');
    expect(posted).toEqual([['xi:auth', { type: 'sign-out' }]]);
  });

  it('recognises the sign-out message only', () => {
    expect(isSignOutMessage({ type: 'sign-out' })).toBe(true);
    expect(isSignOutMessage({ type: 'sign-in' })).toBe(false);
    expect(isSignOutMessage('sign-out')).toBe(false);
    expect(isSignOutMessage(null)).toBe(false);
  });
});
