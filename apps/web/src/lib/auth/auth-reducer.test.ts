import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/user-fixture';
import { type AuthState, authReducer, initialAuthState } from './auth-reducer';

const user = makeUser({ first_name: 'Ada' });
const signedIn: AuthState = { status: 'signedIn', user, signOutPending: false };
const signedOut: AuthState = { status: 'signedOut', user: null, signOutPending: false };

describe('authReducer (accounts §4)', () => {
  it('starts unknown', () => {
    expect(initialAuthState).toEqual({ status: 'unknown', user: null, signOutPending: false });
  });

  it('applies a signed-in signal at once, from any state', () => {
    for (const state of [initialAuthState, signedOut, { ...signedIn, signOutPending: true }]) {
      expect(authReducer(state, { type: 'signedInSignal', user })).toEqual(signedIn);
    }
  });

  it('a signed-out signal only marks the sign-out pending', () => {
    expect(authReducer(signedIn, { type: 'signedOutSignal' })).toEqual({ ...signedIn, signOutPending: true });
    expect(authReducer(initialAuthState, { type: 'signedOutSignal' })).toEqual({
      ...initialAuthState,
      signOutPending: true,
    });
  });

  it('applies the sign-out when the delay elapses', () => {
    const pending = authReducer(signedIn, { type: 'signedOutSignal' });
    expect(authReducer(pending, { type: 'signOutDelayElapsed' })).toEqual(signedOut);
  });

  it('a signed-in signal within the delay cancels the sign-out', () => {
    const pending = authReducer(signedIn, { type: 'signedOutSignal' });
    const back = authReducer(pending, { type: 'signedInSignal', user });
    expect(back).toEqual(signedIn);
    expect(authReducer(back, { type: 'signOutDelayElapsed' })).toBe(back);
  });

  it('leaves the state as it is when nothing changes', () => {
    expect(authReducer(signedOut, { type: 'signedOutSignal' })).toBe(signedOut);
    const pending = { ...signedIn, signOutPending: true };
    expect(authReducer(pending, { type: 'signedOutSignal' })).toBe(pending);
    expect(authReducer(signedIn, { type: 'signOutDelayElapsed' })).toBe(signedIn);
  });
});
