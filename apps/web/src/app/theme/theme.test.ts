import { afterEach, describe, expect, it, vi } from 'vitest';
import indexHtml from '../../../index.html?raw';
import { storageKeys } from '../../lib/storage-keys';
import { applyTheme, getOppositeTheme, parseTheme, readInitialTheme, resolveInitialTheme } from './theme';

const root = document.documentElement;

afterEach(() => {
  localStorage.clear();
  root.className = '';
  root.removeAttribute('data-theme');
  root.removeAttribute('style');
  vi.unstubAllGlobals();
});

/** Stubs matchMedia so the system prefers dark or light. */
function preferDark(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: dark && query === '(prefers-color-scheme: dark)',
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

describe('theme rules (accounts §4)', () => {
  it('reads only light and dark', () => {
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme('dark')).toBe('dark');
    expect(parseTheme('Dark')).toBeNull();
    expect(parseTheme(null)).toBeNull();
  });

  it('starts from the stored theme, else the system preference', () => {
    expect(resolveInitialTheme('light', true)).toBe('light');
    expect(resolveInitialTheme('dark', false)).toBe('dark');
    expect(resolveInitialTheme(null, true)).toBe('dark');
    expect(resolveInitialTheme('purple', false)).toBe('light');
  });

  it('reads the stored value under xi:theme', () => {
    preferDark(true);
    expect(readInitialTheme()).toBe('dark');
    localStorage.setItem('xi:theme', 'light');
    expect(readInitialTheme()).toBe('light');
  });

  it('toggles', () => {
    expect(getOppositeTheme('light')).toBe('dark');
    expect(getOppositeTheme('dark')).toBe('light');
  });

  it('applies the dark class, data-theme and color-scheme to <html>', () => {
    applyTheme('dark');
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.dataset.theme).toBe('dark');
    expect(root.style.colorScheme).toBe('dark');
    applyTheme('light');
    expect(root.classList.contains('dark')).toBe(false);
    expect(root.dataset.theme).toBe('light');
  });
});

describe('the pre-paint script in index.html', () => {
  const script = /<script>([\s\S]*?)<\/script>/.exec(indexHtml)?.[1] ?? '';
  // Runs the exact inline script that ships in index.html, in this jsdom page.
  const runScript = () => new Function(script)();

  it('uses the storage key of lib/storage-keys.ts', () => {
    expect(script).toContain(`'${storageKeys.theme}'`);
  });

  it.each([
    ['dark', false, 'dark'],
    ['light', true, 'light'],
    [null, true, 'dark'],
    [null, false, 'light'],
    ['junk', true, 'dark'],
  ] as const)('stored %s, system dark %s → %s, like resolveInitialTheme', (stored, dark, expected) => {
    preferDark(dark);
    if (stored) localStorage.setItem('xi:theme', stored);
    runScript();
    expect(root.dataset.theme).toBe(expected);
    expect(root.classList.contains('dark')).toBe(expected === 'dark');
    expect(resolveInitialTheme(stored, dark)).toBe(expected);
  });
});
