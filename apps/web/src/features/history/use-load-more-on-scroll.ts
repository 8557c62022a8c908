import { useEffect, useEffectEvent, useRef } from 'react';

/**
 * Calls `onLoadMore` when the returned sentinel element scrolls into view (with a margin, so the next page
 * is asked for a little before the end), while `enabled`. Without IntersectionObserver it does nothing and
 * the list's "Load more" button remains.
 */
export function useLoadMoreOnScroll<Element extends HTMLElement>(enabled: boolean, onLoadMore: () => void) {
  const sentinel = useRef<Element>(null);
  const loadMore = useEffectEvent(onLoadMore);
  useEffect(() => {
    const target = sentinel.current;
    if (!enabled || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [enabled]);
  return sentinel;
}
