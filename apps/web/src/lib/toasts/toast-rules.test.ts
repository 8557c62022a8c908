import { describe, expect, it } from 'vitest';
import { getToastPosition, maxVisibleToasts, pushToast, toastDurationMs } from './toast-rules';

const item = (id: number, open = true) => ({ id, open });

describe('toast constants (accounts §9)', () => {
  it('close after 5555 ms, at most 3 at once', () => {
    expect(toastDurationMs).toBe(5555);
    expect(maxVisibleToasts).toBe(3);
  });
});

describe('pushToast: at most 3 at once (accounts §9)', () => {
  it('adds toasts while there is room', () => {
    expect(pushToast([], item(1))).toEqual([item(1)]);
    expect(pushToast([item(1), item(2)], item(3))).toEqual([item(1), item(2), item(3)]);
  });

  it('a 4th pushes out the oldest', () => {
    expect(pushToast([item(1), item(2), item(3)], item(4))).toEqual([item(2), item(3), item(4)]);
  });

  it('keeps pushing out the oldest, one by one', () => {
    let queue: Array<{ id: number; open: boolean }> = [];
    for (let id = 1; id <= 10; id++) {
      queue = pushToast(queue, item(id));
      expect(queue.length).toBe(Math.min(id, 3));
    }
    expect(queue.map((t) => t.id)).toEqual([8, 9, 10]);
  });

  it('drops toasts that are already closing, so they do not take a place', () => {
    expect(pushToast([item(1), item(2, false), item(3)], item(4))).toEqual([item(1), item(3), item(4)]);
  });

  it('does not change the queue it was given', () => {
    const queue = [item(1), item(2), item(3)];
    pushToast(queue, item(4));
    expect(queue).toEqual([item(1), item(2), item(3)]);
  });

  it('takes another limit', () => {
    expect(pushToast([item(1), item(2)], item(3), 1)).toEqual([item(3)]);
  });
});

describe('getToastPosition (accounts §2)', () => {
  it.each([
    '/app/sign-in',
    '/app/sign-up',
    '/app/sign-in/',
    '/app/sign-in/forgot-password',
    '/app/sign-up/anything/deeper',
    '/app/Sign-In',
  ])('%s is top-center', (path) => {
    expect(getToastPosition(path)).toBe('top-center');
  });

  it.each([
    '/',
    '/app',
    '/app/home',
    '/app/sign-in-help',
    '/app/sign-upgrade',
    '/sign-in',
    '/app/settings/sign-in',
    '/app/speech-synthesis/text-to-speech',
  ])('%s is bottom-right', (path) => {
    expect(getToastPosition(path)).toBe('bottom-right');
  });
});
