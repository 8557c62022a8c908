import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/user-fixture';
import { signOutDelayMs } from './auth-reducer';
import { createAuthStore } from './auth-store';

const user = makeUser();

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('auth store: the 1 second sign-out delay (accounts §4)', () => {
  it('is one second', () => {
    expect(signOutDelayMs).toBe(1000);
  });

  it('applies signed-in at once', () => {
    const store = createAuthStore();
    store.signalSignedIn(user);
    expect(store.getState()).toMatchObject({ status: 'signedIn', user });
  });

  it('applies signed-out only after 1000 ms', () => {
    const store = createAuthStore();
    store.signalSignedIn(user);
    store.signalSignedOut();
    vi.advanceTimersByTime(999);
    expect(store.getState().status).toBe('signedIn');
    vi.advanceTimersByTime(1);
    expect(store.getState()).toEqual({ status: 'signedOut', user: null, signOutPending: false });
  });

  it('goes from unknown to signed out after the delay too', () => {
    const store = createAuthStore();
    store.signalSignedOut();
    expect(store.getState().status).toBe('unknown');
    vi.advanceTimersByTime(1000);
    expect(store.getState().status).toBe('signedOut');
  });

  it('a signed-in signal within the second cancels the sign-out', () => {
    const store = createAuthStore();
    store.signalSignedIn(user);
    store.signalSignedOut();
    vi.advanceTimersByTime(600);
    store.signalSignedIn(makeUser({ first_name: 'Ada' }));
    vi.advanceTimersByTime(5000);
    expect(store.getState()).toMatchObject({ status: 'signedIn', user: { first_name: 'Ada' } });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('repeated signed-out signals do not restart the delay', () => {
    const store = createAuthStore();
    store.signalSignedIn(user);
    store.signalSignedOut();
    vi.advanceTimersByTime(700);
    store.signalSignedOut();
    vi.advanceTimersByTime(300);
    expect(store.getState().status).toBe('signedOut');
  });

  it('a new sign-out after a cancelled one waits its own full second', () => {
    const store = createAuthStore();
    store.signalSignedIn(user);
    store.signalSignedOut();
    vi.advanceTimersByTime(900);
    store.signalSignedIn(user);
    store.signalSignedOut();
    vi.advanceTimersByTime(900);
    expect(store.getState().status).toBe('signedIn');
    vi.advanceTimersByTime(100);
    expect(store.getState().status).toBe('signedOut');
  });

  it('tells subscribers about each change, and stops when unsubscribed', () => {
    const store = createAuthStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.signalSignedIn(user);
    store.signalSignedOut();
    vi.advanceTimersByTime(1000);
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    store.signalSignedIn(user);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('takes another delay', () => {
    const store = createAuthStore(10);
    store.signalSignedOut();
    vi.advanceTimersByTime(10);
    expect(store.getState().status).toBe('signedOut');
  });
});
