import { getToastMessage } from '../http-error';
import { pushToast } from './toast-rules';

export type ToastVariant = 'default' | 'success' | 'error';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ToastItem extends Required<Pick<ToastInput, 'title' | 'variant'>> {
  id: string;
  description?: string;
  /** False while the toast plays its exit animation, just before it leaves the list. */
  open: boolean;
}

export interface ToastStore {
  /** Shows a toast and returns its id. */
  toast: (input: ToastInput) => string;
  /** Shows the generic error toast for any thrown value (accounts §8). */
  toastError: (error: unknown) => string;
  /** Starts closing a toast; it leaves the list once its exit animation has had time to run. */
  dismiss: (id: string) => void;
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => readonly ToastItem[];
}

/** Time the exit animation gets before a closed toast is removed. */
const exitAnimationMs = 200;

/** Creates a toast queue outside React, so code that is not a component (query callbacks) can toast too. */
export function createToastStore(): ToastStore {
  let toasts: readonly ToastItem[] = [];
  let nextId = 0;
  const listeners = new Set<() => void>();

  const update = (next: readonly ToastItem[]) => {
    toasts = next;
    for (const listener of listeners) listener();
  };

  const toast = ({ title, description, variant = 'default' }: ToastInput) => {
    nextId += 1;
    const id = `toast-${nextId}`;
    update(pushToast(toasts, { id, title, description, variant, open: true }));
    return id;
  };

  return {
    toast,
    toastError: (error) => toast({ title: getToastMessage(error), variant: 'error' }),
    dismiss: (id) => {
      if (!toasts.some((item) => item.id === id && item.open)) return;
      update(toasts.map((item) => (item.id === id ? { ...item, open: false } : item)));
      setTimeout(() => update(toasts.filter((item) => item.id !== id)), exitAnimationMs);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => toasts,
  };
}

/** The app's one toast queue. */
export const toastStore = createToastStore();

/** Shows a toast from anywhere in the app. */
export function toast(input: ToastInput): string {
  return toastStore.toast(input);
}

/** Shows the error toast for a failed request: server message below 500, else the generic one (accounts §8). */
export function toastError(error: unknown): string {
  return toastStore.toastError(error);
}
