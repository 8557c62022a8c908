import type { UserResponse } from '@parla/contracts';

/** Sign-in state (accounts §4): unknown until the first answer, then signed in or signed out. */
export type AuthStatus = 'unknown' | 'signedIn' | 'signedOut';

export interface AuthState {
  status: AuthStatus;
  user: UserResponse | null;
  /** A signed-out signal arrived and waits out its delay; a signed-in signal cancels it. */
  signOutPending: boolean;
}

export type AuthEvent =
  | { type: 'signedInSignal'; user: UserResponse }
  | { type: 'signedOutSignal' }
  | { type: 'signOutDelayElapsed' };

/** The delay between a signed-out signal and the sign-out taking effect (accounts §4). */
export const signOutDelayMs = 1000;

export const initialAuthState: AuthState = { status: 'unknown', user: null, signOutPending: false };

/**
 * The sign-in state machine (accounts §4): a signed-in signal applies at once (and cancels a pending
 * sign-out); a signed-out signal only marks the sign-out pending, and it is applied when the delay
 * elapses, so a brief gap in the session (a token refresh) never flashes the signed-out app.
 */
export function authReducer(state: AuthState, event: AuthEvent): AuthState {
  switch (event.type) {
    case 'signedInSignal':
      return { status: 'signedIn', user: event.user, signOutPending: false };
    case 'signedOutSignal':
      if (state.status === 'signedOut' || state.signOutPending) return state;
      return { ...state, signOutPending: true };
    case 'signOutDelayElapsed':
      if (!state.signOutPending) return state;
      return { status: 'signedOut', user: null, signOutPending: false };
  }
}
