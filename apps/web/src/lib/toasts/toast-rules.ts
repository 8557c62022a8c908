/** How long a toast stays before closing itself (accounts §9). */
export const toastDurationMs = 5555;
/** How many toasts show at once; a newer one pushes out the oldest (accounts §9). */
export const maxVisibleToasts = 3;

export type ToastPosition = 'top-center' | 'bottom-right';

/** Pages whose toasts sit top-centre, with everything below them (accounts §2). */
const topCenterPaths = ['/app/sign-in', '/app/sign-up'];

/**
 * Where toasts appear for a path: top-centre on the sign-in and sign-up pages and their sub-paths
 * (e.g. /app/sign-in/forgot-password), bottom-right elsewhere (accounts §2). Paths match without regard
 * to case or a trailing slash, as the router does.
 */
export function getToastPosition(pathname: string): ToastPosition {
  const path = pathname.toLowerCase().replace(/\/+$/, '');
  const onAuthPage = topCenterPaths.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  return onAuthPage ? 'top-center' : 'bottom-right';
}

/**
 * Adds a toast to the visible queue (accounts §9): toasts already closing leave at once, and when more
 * than `max` remain the oldest are pushed out.
 */
export function pushToast<T extends { open: boolean }>(
  queue: readonly T[],
  toast: T,
  max: number = maxVisibleToasts,
): T[] {
  return [...queue.filter((item) => item.open), toast].slice(-max);
}
