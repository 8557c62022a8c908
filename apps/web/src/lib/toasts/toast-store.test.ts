import { clientErrorMessages } from '@parla/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../http-error';
import { createToastStore } from './toast-store';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('toast store', () => {
  it('shows toasts with a default variant and tells subscribers', () => {
    const store = createToastStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const id = store.toast({ title: 'Saved', description: 'Your voice is ready' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toEqual([
      { id, title: 'Saved', description: 'Your voice is ready', variant: 'default', open: true },
    ]);
  });

  it('keeps at most 3, pushing out the oldest', () => {
    const store = createToastStore();
    for (const title of ['a', 'b', 'c', 'd']) store.toast({ title });
    expect(store.getSnapshot().map((t) => t.title)).toEqual(['b', 'c', 'd']);
  });

  it('dismiss closes a toast, then removes it after its exit animation', () => {
    const store = createToastStore();
    const id = store.toast({ title: 'Bye' });
    store.dismiss(id);
    expect(store.getSnapshot()[0]?.open).toBe(false);
    vi.advanceTimersByTime(250);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('toastError uses the accounts §8 rule', () => {
    const store = createToastStore();
    store.toastError(new HttpError({ status: 400, message: 'Text is empty', errorType: 'invalid_request' }));
    store.toastError(new HttpError({ status: 500, message: 'stack trace', errorType: 'internal_error' }));
    expect(store.getSnapshot().map((t) => [t.title, t.variant])).toEqual([
      ['Text is empty', 'error'],
      [clientErrorMessages.generic, 'error'],
    ]);
  });
});
