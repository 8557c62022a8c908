import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readInitialTheme } from '../../app/theme/theme';
import { makeUser } from '../../test/user-fixture';
import { getAccessToken, setAccessToken } from '../access-token';
import { AuthProvider, type AuthProviderProps, useAuth } from './auth-provider';
import { createAuthStore } from './auth-store';
import { authChannelName } from './sign-out';

function AuthProbe() {
  const { status, user, signingOut, signOut } = useAuth();
  return (
    <div>
      <p>status: {status}</p>
      <p>user: {user?.user_id ?? 'none'}</p>
      <p>signing out: {signingOut ? 'yes' : 'no'}</p>
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}

/** Renders one "tab": a provider with a short sign-out delay, and its own onSignedOut spy. */
function renderAuth(props: Partial<AuthProviderProps> = {}) {
  const onSignedOut = vi.fn();
  const { container } = render(
    <AuthProvider onSignedOut={onSignedOut} store={createAuthStore(20)} {...props}>
      <AuthProbe />
    </AuthProvider>,
  );
  return { onSignedOut, tab: within(container) };
}

/** A channel standing for another tab that only listens. */
function listenAsOtherTab() {
  const channel = new BroadcastChannel(authChannelName);
  const received: unknown[] = [];
  channel.onmessage = (event) => received.push(event.data);
  return { received, close: () => channel.close() };
}

/** Gives any message still travelling between channels time to arrive. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 100)));

/** Makes `document.cookie` throw, as it does in a sandboxed frame without allow-same-origin. */
function blockCookies(): void {
  const deny = () => {
    throw new DOMException('The document is sandboxed.', 'SecurityError');
  };
  Object.defineProperty(document, 'cookie', { configurable: true, get: deny, set: deny });
}

/** Cache Storage whose `keys` counts how many times a tab ran clearSessionData. */
let cacheKeys: ReturnType<typeof vi.fn>;

beforeEach(() => {
  cacheKeys = vi.fn(async () => []);
  vi.stubGlobal('caches', { keys: cacheKeys, delete: async () => true });
  vi.stubGlobal(
    'fetch',
    async () => new Response(JSON.stringify(makeUser({ user_id: 'u7' })), { status: 200 }),
  );
});

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(document, 'cookie');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  localStorage.clear();
});

describe('<AuthProvider>', () => {
  it('is signed out, after the delay, when there is no token', async () => {
    renderAuth();
    expect(screen.getByText('status: unknown')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
  });

  it('is signed in when the token is accepted, and probes again when the token changes', async () => {
    renderAuth();
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
    act(() => setAccessToken('t1'));
    await waitFor(() => expect(screen.getByText('status: signedIn')).toBeTruthy());
    expect(screen.getByText('user: u7')).toBeTruthy();
  });

  it('signs out: clears the xi: keys but keeps the saved theme (accounts §4), broadcasts, and leaves', async () => {
    setAccessToken('t1');
    localStorage.setItem('xi:theme', 'dark');
    localStorage.setItem('xi:invite-code', 'abc');
    localStorage.setItem('xi:billing-period', 'yearly');
    const otherTab = listenAsOtherTab();
    const { onSignedOut } = renderAuth();
    await waitFor(() => expect(screen.getByText('status: signedIn')).toBeTruthy());

    act(() => screen.getByRole('button', { name: 'Sign out' }).click());
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('xi:invite-code')).toBeNull();
    expect(localStorage.getItem('xi:billing-period')).toBeNull();
    expect(localStorage.getItem('xi:theme')).toBe('dark');
    // The next page load starts from the kept theme.
    expect(readInitialTheme()).toBe('dark');
    await waitFor(() => expect(otherTab.received).toEqual([{ type: 'sign-out' }]));
    otherTab.close();
  });

  it('the signing-out tab signs out once, and the other tabs sign out too', async () => {
    // Counts the channels opened: a tab posts on the one it listens on, which never hears itself.
    const opened: string[] = [];
    vi.stubGlobal(
      'BroadcastChannel',
      class extends BroadcastChannel {
        constructor(name: string) {
          super(name);
          opened.push(name);
        }
      },
    );
    setAccessToken('t1');
    const listener = listenAsOtherTab();
    const tabA = renderAuth();
    const tabB = renderAuth();
    expect(opened).toEqual([authChannelName, authChannelName, authChannelName]);
    await waitFor(() => expect(tabA.tab.getByText('status: signedIn')).toBeTruthy());
    await waitFor(() => expect(tabB.tab.getByText('status: signedIn')).toBeTruthy());

    act(() => tabA.tab.getByRole('button', { name: 'Sign out' }).click());
    // Tab B has received the broadcast and finished with it; an echo in tab A would have come with it.
    await waitFor(() => expect(tabB.onSignedOut).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(tabB.tab.getByText('status: signedOut')).toBeTruthy());
    await waitFor(() => expect(tabA.tab.getByText('status: signedOut')).toBeTruthy());
    await settle();

    expect(tabA.onSignedOut).toHaveBeenCalledTimes(1);
    expect(tabB.onSignedOut).toHaveBeenCalledTimes(1);
    expect(cacheKeys).toHaveBeenCalledTimes(2); // clearSessionData: once in tab A, once in tab B
    expect(listener.received).toEqual([{ type: 'sign-out' }]);
    expect(opened).toHaveLength(3);
    listener.close();
  });

  it('ignores further sign-out calls while one is under way', async () => {
    setAccessToken('t1');
    const listener = listenAsOtherTab();
    const { onSignedOut } = renderAuth({ store: createAuthStore(200) });
    await waitFor(() => expect(screen.getByText('status: signedIn')).toBeTruthy());

    const button = screen.getByRole('button', { name: 'Sign out' });
    act(() => button.click());
    expect(screen.getByText('signing out: yes')).toBeTruthy();
    await waitFor(() => expect(onSignedOut).toHaveBeenCalledTimes(1));
    // Still within the sign-out delay: the state is signed in, and a second click must do nothing.
    expect(screen.getByText('status: signedIn')).toBeTruthy();
    act(() => button.click());
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
    await waitFor(() => expect(screen.getByText('signing out: no')).toBeTruthy());
    await settle();

    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(cacheKeys).toHaveBeenCalledTimes(1);
    expect(listener.received).toEqual([{ type: 'sign-out' }]);
    listener.close();
  });

  it('still broadcasts and leaves when a clearing step throws (cookies blocked in a sandboxed frame)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    setAccessToken('t1');
    localStorage.setItem('xi:invite-code', 'abc');
    const listener = listenAsOtherTab();
    const { onSignedOut } = renderAuth();
    await waitFor(() => expect(screen.getByText('status: signedIn')).toBeTruthy());
    blockCookies();

    act(() => screen.getByRole('button', { name: 'Sign out' }).click());
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('xi:invite-code')).toBeNull();
    expect(cacheKeys).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(listener.received).toEqual([{ type: 'sign-out' }]));
    expect(warn).toHaveBeenCalledWith(
      'Sign-out: "clear cookies" failed; the sign-out goes on.',
      expect.any(DOMException),
    );
    listener.close();
  });

  it('ends the server session first when given a way to, and signs out even when that fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    setAccessToken('t1');
    const tokenAtServerCall: Array<string | null> = [];
    const endServerSession = vi.fn(async () => {
      tokenAtServerCall.push(getAccessToken());
      throw new TypeError('Failed to fetch');
    });
    const { onSignedOut } = renderAuth({ endServerSession });
    await waitFor(() => expect(screen.getByText('status: signedIn')).toBeTruthy());

    act(() => screen.getByRole('button', { name: 'Sign out' }).click());
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
    expect(tokenAtServerCall).toEqual(['t1']);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBeNull();
  });

  it('signs out when another tab says so, without telling the others again', async () => {
    setAccessToken('t1');
    const { onSignedOut } = renderAuth();
    await waitFor(() => expect(screen.getByText('status: signedIn')).toBeTruthy());
    const otherTab = new BroadcastChannel(authChannelName);
    const heardBack: unknown[] = [];
    otherTab.onmessage = (event) => heardBack.push(event.data);

    otherTab.postMessage({ type: 'sign-out' });
    await waitFor(() => expect(onSignedOut).toHaveBeenCalledTimes(1));
    expect(getAccessToken()).toBeNull();
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
    await settle();
    expect(heardBack).toEqual([]);
    otherTab.close();
  });
});
