import type { UserResponse } from '@parla/contracts';
import {
  type AuthEvent,
  type AuthState,
  authReducer,
  initialAuthState,
  signOutDelayMs,
} from './auth-reducer';

export interface AuthStore {
  getState: () => AuthState;
  subscribe: (listener: () => void) => () => void;
  /** The session answered with a user: applied at once. */
  signalSignedIn: (user: UserResponse) => void;
  /** The session is gone: applied after the sign-out delay unless a signed-in signal comes first. */
  signalSignedOut: () => void;
}

/** Runs the auth reducer and owns its one timer: the delayed sign-out of accounts §4. */
export function createAuthStore(delayMs: number = signOutDelayMs): AuthStore {
  let state = initialAuthState;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();

  const dispatch = (event: AuthEvent) => {
    const next = authReducer(state, event);
    if (next === state) return;
    if (next.signOutPending && !state.signOutPending) {
      timer = setTimeout(() => {
        timer = undefined;
        dispatch({ type: 'signOutDelayElapsed' });
      }, delayMs);
    } else if (!next.signOutPending && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    state = next;
    for (const listener of listeners) listener();
  };

  return {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    signalSignedIn: (user) => dispatch({ type: 'signedInSignal', user }),
    signalSignedOut: () => dispatch({ type: 'signedOutSignal' }),
  };
}
