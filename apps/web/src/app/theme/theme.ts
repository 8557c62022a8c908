import { readStorage, storageKeys } from '../../lib/storage-keys';

export type Theme = 'light' | 'dark';

/** The media query of the system preference used when no theme is stored (accounts §4 theme). */
export const darkSchemeQuery = '(prefers-color-scheme: dark)';

/** Reads a stored value as a theme; anything else (absent, stale, edited by hand) is null. */
export function parseTheme(value: unknown): Theme | null {
  return value === 'light' || value === 'dark' ? value : null;
}

/** The starting theme: the stored one, else the system preference. The index.html script applies the same rule. */
export function resolveInitialTheme(stored: string | null, prefersDark: boolean): Theme {
  return parseTheme(stored) ?? (prefersDark ? 'dark' : 'light');
}

/** Whether the system asks for dark; false where matchMedia is missing (old browsers, jsdom). */
export function getSystemPrefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(darkSchemeQuery).matches
    : false;
}

/** The theme to start with in this page, per resolveInitialTheme. */
export function readInitialTheme(): Theme {
  return resolveInitialTheme(readStorage(storageKeys.theme), getSystemPrefersDark());
}

/** The other theme. */
export function getOppositeTheme(theme: Theme): Theme {
  return theme === 'dark' ? 'light' : 'dark';
}

/** Puts a theme on <html>: the `dark` class (Tailwind's dark variant), `data-theme` and `color-scheme`. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.setAttribute('data-theme', theme);
  root.style.colorScheme = theme;
}
