import type { UserResponse } from '@parla/contracts';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { AuthStatus } from './auth-reducer';
import { type AuthStore, createAuthStore } from './auth-store';
import { probeSession } from './probe-session';
import {
  authChannelName,
  broadcastSignOut,
  clearSessionData,
  isSignOutMessage,
  runSignOut,
  runSignOutStep,
} from './sign-out';
import { watchSession } from './watch-session';

interface AuthContextValue {
  status: AuthStatus;
  user: UserResponse | null;
  /** A sign-out is under way, from the call until it takes effect; its button waits meanwhile. */
  signingOut: boolean;
  /**
   * Signs out here and in every other tab, then goes to the sign-in page (accounts §4). Calls made while a
   * sign-out is under way join it. Resolves when the sign-out has taken effect and never rejects.
   */
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
  /** Ends the server session before the local sign-out; see `SignOutSteps.endServerSession`. */
  endServerSession?: () => Promise<void>;
  /** Receives the user of every signed-in answer of the session probe, before the state changes. */
  onUser?: (user: UserResponse) => void;
  /** The state machine; tests pass one with a short delay. */
  store?: AuthStore;
  children: ReactNode;
}

/** Resolves once no sign-out waits out its delay: it took effect, or a sign-in cancelled it. */
function whenSignOutSettles(store: AuthStore): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (store.getState().signOutPending) return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = store.subscribe(check);
    check();
  });
}

/**
 * Keeps the sign-in state (accounts §4): watches the session (watchSession) and feeds the delayed-sign-out
 * machine, and keeps one `xi:auth` channel open so a sign-out in one tab signs out all of them.
 */
export function AuthProvider({
  onSignedOut,
  endServerSession,
  onUser,
  store: givenStore,
  children,
}: AuthProviderProps) {
  const [store] = useState(() => givenStore ?? createAuthStore());
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const [signingOut, setSigningOut] = useState(false);
  /** The one channel of this tab, for both listening and posting (see broadcastSignOut). */
  const channelRef = useRef<BroadcastChannel | null>(null);
  /** The sign-out under way, which every further call joins. */
  const runRef = useRef<Promise<void> | null>(null);

  const handleUser = useEffectEvent((user: UserResponse) => onUser?.(user));
  useEffect(() => watchSession(store, probeSession, handleUser), [store]);

  const startSignOut = useCallback(
    (origin: 'this tab' | 'another tab'): Promise<void> => {
      if (runRef.current) return runRef.current;
      setSigningOut(true);
      const run = (async () => {
        if (origin === 'this tab') {
          await runSignOut({ endServerSession, broadcast: () => broadcastSignOut(channelRef.current) });
        } else {
          // The other tab cleared the shared storage and told every tab; this page still holds its
          // in-memory token, and clearing the rest again is harmless. No broadcast back.
          await clearSessionData();
        }
        store.signalSignedOut();
        await runSignOutStep('leave for the sign-in page', onSignedOut);
        await whenSignOutSettles(store);
      })().finally(() => {
        runRef.current = null;
        setSigningOut(false);
      });
      runRef.current = run;
      return run;
    },
    [store, endServerSession, onSignedOut],
  );

  const handleChannelMessage = useEffectEvent((event: MessageEvent<unknown>) => {
    if (isSignOutMessage(event.data)) void startSignOut('another tab');
  });

  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(authChannelName);
    channel.onmessage = (event: MessageEvent<unknown>) => handleChannelMessage(event);
    channelRef.current = channel;
    return () => {
      channelRef.current = null;
      channel.close();
    };
  }, []);

  const signOut = useCallback(() => startSignOut('this tab'), [startSignOut]);

  const value = useMemo<AuthContextValue>(
    () => ({ status: state.status, user: state.user, signingOut, signOut }),
    [state.status, state.user, signingOut, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
