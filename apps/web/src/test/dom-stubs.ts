import { vi } from 'vitest';

/** jsdom has no ResizeObserver, which Radix positioning (tooltips, popovers) reads. Undone by vi.unstubAllGlobals. */
export function stubResizeObserver(): void {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}

/**
 * A screen `width` CSS pixels wide, as far as `window.matchMedia` tells (jsdom has none): min-width and
 * max-width queries answer for that width; anything else does not match. Undone by vi.unstubAllGlobals.
 */
export function stubScreenWidth(width: number): void {
  vi.stubGlobal('matchMedia', (query: string) => {
    const min = /\(min-width:\s*(\d+)px\)/.exec(query);
    const max = /\(max-width:\s*(\d+)px\)/.exec(query);
    const matches =
      (min !== null || max !== null) &&
      (min === null || width >= Number(min[1])) &&
      (max === null || width <= Number(max[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    } satisfies MediaQueryList;
  });
}
