import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore } from '../lib/toasts/toast-store';
import { useToast } from '../lib/toasts/use-toast';
import { ToastProvider } from './toast-provider';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function ToastButton() {
  const { toast } = useToast();
  return (
    <button type="button" onClick={() => toast({ title: 'Hello', variant: 'success' })}>
      Greet
    </button>
  );
}

describe('<ToastProvider>', () => {
  it('shows at most 3 toasts, the newest ones', () => {
    const store = createToastStore();
    render(<ToastProvider position="bottom-right" store={store} />);
    act(() => {
      for (const title of ['one', 'two', 'three', 'four']) store.toast({ title });
    });
    expect(screen.queryByText('one')).toBeNull();
    for (const title of ['two', 'three', 'four']) expect(screen.getByText(title)).toBeTruthy();
  });

  it('closes a toast after 5555 ms', () => {
    const store = createToastStore();
    render(<ToastProvider position="bottom-right" store={store} />);
    act(() => {
      store.toast({ title: 'Short-lived' });
    });
    act(() => vi.advanceTimersByTime(5500));
    expect(store.getSnapshot()[0]?.open).toBe(true);
    act(() => vi.advanceTimersByTime(100));
    expect(store.getSnapshot()[0]?.open).toBe(false);
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByText('Short-lived')).toBeNull();
  });

  it('pauses while the pointer is over the toasts and resumes when it leaves', () => {
    const store = createToastStore();
    render(<ToastProvider position="bottom-right" store={store} />);
    act(() => {
      store.toast({ title: 'Hover me' });
    });
    const region = screen.getByRole('region', { name: /notifications/i });
    act(() => vi.advanceTimersByTime(2000));
    fireEvent.pointerMove(region);
    act(() => vi.advanceTimersByTime(10_000));
    expect(store.getSnapshot()[0]?.open).toBe(true);
    fireEvent.pointerLeave(region);
    act(() => vi.advanceTimersByTime(3000));
    expect(store.getSnapshot()[0]?.open).toBe(true);
    act(() => vi.advanceTimersByTime(600));
    expect(store.getSnapshot()[0]?.open).toBe(false);
  });

  it('places the stack per the position and gives useToast to children', () => {
    const store = createToastStore();
    render(
      <ToastProvider position="top-center" store={store}>
        <ToastButton />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Greet' }));
    expect(screen.getByText('Hello')).toBeTruthy();
    expect(document.querySelector('[data-position="top-center"]')).not.toBeNull();
  });

  it('closes on the close button', () => {
    const store = createToastStore();
    render(<ToastProvider position="bottom-right" store={store} />);
    act(() => {
      store.toast({ title: 'Closable' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(store.getSnapshot()[0]?.open).toBe(false);
  });
});
