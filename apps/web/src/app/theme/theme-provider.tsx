import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { readStorage, storageKeys, writeStorage } from '../../lib/storage-keys';
import {
  applyTheme,
  darkSchemeQuery,
  getOppositeTheme,
  parseTheme,
  readInitialTheme,
  type Theme,
} from './theme';

interface ThemeContextValue {
  theme: Theme;
  /** Chooses a theme and keeps it in localStorage (accounts §4 theme). */
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

/** The current theme and the functions that change it. */
export function useTheme(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used inside <ThemeProvider>');
  return value;
}

/**
 * Holds the light/dark theme (accounts §4): starts as the pre-paint script in index.html did, keeps a
 * chosen theme under `xi:theme`, follows the system while nothing is stored, and follows other tabs.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  // The same rule as the pre-paint script, so the first render matches what is already on screen.
  const [theme, setThemeState] = useState<Theme>(readInitialTheme);

  useEffect(() => {
    applyTheme(theme);
  }, [theme]);

  useEffect(() => {
    // Another tab chose a theme. A removal (storage cleared by hand) keeps the theme in memory.
    const handleStorage = (event: StorageEvent) => {
      const next = event.key === storageKeys.theme ? parseTheme(event.newValue) : null;
      if (next) setThemeState(next);
    };
    window.addEventListener('storage', handleStorage);
    const media = typeof window.matchMedia === 'function' ? window.matchMedia(darkSchemeQuery) : null;
    const handleSchemeChange = (event: MediaQueryListEvent) => {
      if (!parseTheme(readStorage(storageKeys.theme))) setThemeState(event.matches ? 'dark' : 'light');
    };
    media?.addEventListener('change', handleSchemeChange);
    return () => {
      window.removeEventListener('storage', handleStorage);
      media?.removeEventListener('change', handleSchemeChange);
    };
  }, []);

  const setTheme = useCallback((next: Theme) => {
    writeStorage(storageKeys.theme, next);
    setThemeState(next);
  }, []);

  const value = useMemo<ThemeContextValue>(
    () => ({ theme, setTheme, toggleTheme: () => setTheme(getOppositeTheme(theme)) }),
    [theme, setTheme],
  );

  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}
