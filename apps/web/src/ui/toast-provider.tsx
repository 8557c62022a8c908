import * as RadixToast from '@radix-ui/react-toast';
import { clsx } from 'clsx';
import { type ReactNode, useSyncExternalStore } from 'react';
import { type ToastPosition, toastDurationMs } from '../lib/toasts/toast-rules';
import { type ToastItem, type ToastStore, type ToastVariant, toastStore } from '../lib/toasts/toast-store';
import { ToastStoreContext } from '../lib/toasts/use-toast';
import { AlertCircleIcon, CheckCircleIcon, CloseIcon, InfoIcon } from './icons';

const viewportClasses: Record<ToastPosition, string> = {
  'top-center': 'top-0 left-1/2 -translate-x-1/2 flex-col',
  // Above the bottom player while it shows (it sets --parla-player-offset).
  'bottom-right': 'right-0 bottom-[var(--parla-player-offset,0px)] flex-col',
};

const variantIcons: Record<ToastVariant, ReactNode> = {
  default: <InfoIcon className="text-fg-muted" />,
  success: <CheckCircleIcon className="text-success" />,
  error: <AlertCircleIcon className="text-danger" />,
};

interface ToastCardProps {
  item: ToastItem;
  position: ToastPosition;
  onDismiss: (id: string) => void;
}

/** One toast: icon, title, optional description and a close button; swipes away towards its edge. */
function ToastCard({ item, position, onDismiss }: ToastCardProps) {
  return (
    <RadixToast.Root
      open={item.open}
      onOpenChange={(open) => {
        if (!open) onDismiss(item.id);
      }}
      type={item.variant === 'error' ? 'foreground' : 'background'}
      className={clsx(
        'pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border border-line bg-surface p-4 pr-10 text-fg shadow-lg',
        'dark:shadow-black/40',
        position === 'top-center'
          ? 'data-[state=open]:motion-safe:animate-toast-in-top data-[swipe=move]:translate-y-(--radix-toast-swipe-move-y) data-[swipe=end]:-translate-y-full'
          : 'data-[state=open]:motion-safe:animate-toast-in data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=end]:translate-x-full',
        'data-[state=closed]:motion-safe:animate-toast-out data-[swipe=cancel]:translate-0 data-[swipe=cancel]:transition-transform',
        item.variant === 'error' && 'border-danger/40',
      )}
    >
      <span className="mt-0.5 text-lg">{variantIcons[item.variant]}</span>
      <div className="grid min-w-0 gap-1">
        <RadixToast.Title className="text-sm font-semibold leading-5">{item.title}</RadixToast.Title>
        {item.description && (
          <RadixToast.Description className="text-sm leading-5 text-fg-muted">
            {item.description}
          </RadixToast.Description>
        )}
      </div>
      <RadixToast.Close
        aria-label="Dismiss notification"
        className="absolute top-3 right-3 inline-flex size-6 cursor-pointer items-center justify-center rounded-md text-fg-muted hover:bg-subtle hover:text-fg"
      >
        <CloseIcon />
      </RadixToast.Close>
    </RadixToast.Root>
  );
}

export interface ToastProviderProps {
  /** Where the stack sits; the caller derives it from the path with getToastPosition (accounts §2). */
  position: ToastPosition;
  /** The queue to show; the app's one queue unless a test passes its own. */
  store?: ToastStore;
  children?: ReactNode;
}

/**
 * Shows the toast queue with Radix Toast: each toast closes after 5555 ms, at most 3 show at once, and
 * hovering or focusing the stack (or leaving the window) pauses every timer (accounts §9). The stack is
 * only as large as its toasts, so it never blocks clicks on the page around it.
 */
export function ToastProvider({ position, store = toastStore, children }: ToastProviderProps) {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return (
    <ToastStoreContext.Provider value={store}>
      <RadixToast.Provider
        duration={toastDurationMs}
        swipeDirection={position === 'top-center' ? 'up' : 'right'}
        label="Notification"
      >
        {children}
        {toasts.map((item) => (
          <ToastCard key={item.id} item={item} position={position} onDismiss={store.dismiss} />
        ))}
        <RadixToast.Viewport
          data-position={position}
          className={clsx(
            // Above dialogs' overlays (z-50); the cards themselves take pointer events (pointer-events-auto),
            // so they stay clickable while a modal dialog makes the page inert, and the empty list does not.
            'fixed z-[60] m-0 flex w-full max-w-sm list-none gap-2 p-4 outline-none sm:max-w-md',
            viewportClasses[position],
          )}
        />
      </RadixToast.Provider>
    </ToastStoreContext.Provider>
  );
}
