import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * The width of an element in CSS pixels, read before the first paint and followed as it changes (a window
 * resized, a sidebar folded); `fallback` until it is known and where nothing can be measured (jsdom
 * without a ResizeObserver).
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measured = element.clientWidth;
    if (measured > 0) setWidth(measured);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const next = entries[0]?.contentRect.width;
      if (next !== undefined && next > 0) setWidth(Math.round(next));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
