import { createContext, useContext } from 'react';
import { type ToastStore, toastStore } from './toast-store';

/**
 * The toast queue of the nearest provider (ui/toast-provider.tsx shows it); the app's one queue when none
 * is above, so a component calling useToast works in any test or tree.
 */
export const ToastStoreContext = createContext<ToastStore>(toastStore);

/** The toast functions of the nearest provider: `toast`, `toastError` and `dismiss`. */
export function useToast(): Pick<ToastStore, 'toast' | 'toastError' | 'dismiss'> {
  const { toast, toastError, dismiss } = useContext(ToastStoreContext);
  return { toast, toastError, dismiss };
}
