import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken, setAccessToken } from '../../lib/access-token';
import { ThemeProvider } from '../theme/theme-provider';
import { AuthProvider, useAuth } from './auth-provider';
import { createAuthStore } from './auth-store';
import { authChannelName } from './sign-out';

function AuthProbe() {
  const { status, user, signOut } = useAuth();
  return (
    <div>
      <p>status: {status}</p>
      <p>user: {user?.user_id ?? 'none'}</p>
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}

function renderAuth(onSignedOut = vi.fn(), store = createAuthStore(20)) {
  render(
    <ThemeProvider>
      <AuthProvider onSignedOut={onSignedOut} store={store}>
        <AuthProbe />
      </AuthProvider>
    </ThemeProvider>,
  );
  return { onSignedOut, store };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('data-theme');
});

describe('<AuthProvider>', () => {
  it('is signed out, after the delay, when there is no token', async () => {
    renderAuth();
    expect(screen.getByText('status: unknown')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
  });

  it('is signed in when the token is accepted, and probes again when the token changes', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ user_id: 'u7' }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    renderAuth();
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
    act(() => setAccessToken('t1'));
    await waitFor(() => expect(screen.getByText('status: signedIn')).toBeTruthy());
    expect(screen.getByText('user: u7')).toBeTruthy();
  });

  it('signs out: clears xi: keys but keeps the theme on screen, broadcasts, and leaves', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ user_id: 'u7' }), { status: 200 }));
    setAccessToken('t1');
    localStorage.setItem('xi:theme', 'dark');
    localStorage.setItem('xi:invite-code', 'abc');
    const listener = new BroadcastChannel(authChannelName);
    const received: unknown[] = [];
    listener.onmessage = (event) => received.push(event.data);

    const { onSignedOut } = renderAuth();
    await waitFor(() => expect(screen.getByText('status: signedIn')).toBeTruthy());
    expect(document.documentElement.classList.contains('dark')).toBe(true);

    act(() => screen.getByRole('button', { name: 'Sign out' }).click());
    await waitFor(() => expect(onSignedOut).toHaveBeenCalledTimes(1));
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('xi:theme')).toBeNull();
    expect(localStorage.getItem('xi:invite-code')).toBeNull();
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.dataset.theme).toBe('dark');
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
    await waitFor(() => expect(received).toEqual([{ type: 'sign-out' }]));
    listener.close();
  });

  it('signs out when another tab says so', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ user_id: 'u7' }), { status: 200 }));
    setAccessToken('t1');
    const { onSignedOut } = renderAuth();
    await waitFor(() => expect(screen.getByText('status: signedIn')).toBeTruthy());

    const otherTab = new BroadcastChannel(authChannelName);
    otherTab.postMessage({ type: 'sign-out' });
    otherTab.close();
    await waitFor(() => expect(onSignedOut).toHaveBeenCalledTimes(1));
    expect(getAccessToken()).toBeNull();
    await waitFor(() => expect(screen.getByText('status: signedOut')).toBeTruthy());
  });
});
