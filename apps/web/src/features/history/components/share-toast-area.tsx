import type { ReactNode } from 'react';
import { createToastStore, type ToastStore } from '../../../lib/toasts/toast-store';
import { ToastProvider } from '../../../ui/toast-provider';

/** The share area's own toast queue, shown top-centre. */
export const shareToastStore = createToastStore();

/**
 * history/voices §2: toasts of the share area (the share link and video dialogs) appear top-centre while the
 * rest of the app's sit bottom-right. The toast system places a whole provider, so the share dialogs sit in
 * a provider of their own; its toasts keep the app's rules (5555 ms, at most 3, pause on hover).
 */
export function ShareToastArea({
  store = shareToastStore,
  children,
}: {
  store?: ToastStore;
  children: ReactNode;
}) {
  return (
    <ToastProvider position="top-center" store={store}>
      {children}
    </ToastProvider>
  );
}
