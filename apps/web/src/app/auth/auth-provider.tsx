import type { SessionUser } from '@parla/contracts/session-probe';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import { subscribeAccessToken } from '../../lib/access-token';
import { applyTheme } from '../theme/theme';
import { useTheme } from '../theme/theme-provider';
import type { AuthStatus } from './auth-reducer';
import { type AuthStore, createAuthStore } from './auth-store';
import { probeSession } from './probe-session';
import { authChannelName, broadcastSignOut, clearSessionData, isSignOutMessage } from './sign-out';

interface AuthContextValue {
  status: AuthStatus;
  user: SessionUser | null;
  /** Signs out here and in every other tab, then goes to the sign-in page (accounts §4). */
  signOut: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** The sign-in state and the sign-out action. */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

export interface AuthProviderProps {
  /** Runs after a sign-out here or in another tab: drop cached data, go to the sign-in page. */
  onSignedOut: () => void;
  /** The state machine; tests pass one with a short delay. */
  store?: AuthStore;
  children: ReactNode;
}

/**
 * Keeps the sign-in state (accounts §4): probes the session at start and whenever the access token
 * changes, feeds the answers to the delayed-sign-out machine, and listens on the `xi:auth` channel so a
 * sign-out in one tab signs out all of them.
 */
export function AuthProvider({ onSignedOut, store: givenStore, children }: AuthProviderProps) {
  const [store] = useState(() => givenStore ?? createAuthStore());
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const { theme } = useTheme();

  useEffect(() => {
    let latest = 0;
    let controller: AbortController | undefined;
    const runProbe = async () => {
      latest += 1;
      const probe = latest;
      controller?.abort();
      controller = new AbortController();
      const result = await probeSession(controller.signal).catch((error: unknown) => ({
        status: 'unavailable' as const,
        error,
      }));
      if (probe !== latest) return; // a newer token has its own probe
      if (result.status === 'signedIn') store.signalSignedIn(result.user);
      else if (result.status === 'signedOut') store.signalSignedOut();
    };
    void runProbe();
    const unsubscribe = subscribeAccessToken(() => void runProbe());
    return () => {
      unsubscribe();
      controller?.abort();
      latest += 1;
    };
  }, [store]);

  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(authChannelName);
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (!isSignOutMessage(event.data)) return;
      void clearSessionData().then(() => {
        store.signalSignedOut();
        onSignedOut();
      });
    };
    return () => channel.close();
  }, [store, onSignedOut]);

  const signOut = useCallback(async () => {
    await clearSessionData();
    // Sign-out clears every xi: key, the stored theme too; the theme chosen in this page stays on screen.
    applyTheme(theme);
    broadcastSignOut();
    store.signalSignedOut();
    onSignedOut();
  }, [store, theme, onSignedOut]);

  const value = useMemo<AuthContextValue>(
    () => ({ status: state.status, user: state.user, signOut }),
    [state.status, state.user, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
