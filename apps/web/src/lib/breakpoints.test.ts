import { describe, expect, it } from 'vitest';
import styles from '../styles.css?raw';
import { breakpoints, getMinWidthQuery } from './breakpoints';

describe('breakpoints (accounts §9)', () => {
  it('holds the spec values in ascending order', () => {
    expect(breakpoints).toEqual({
      xs: 480,
      sm: 640,
      md: 768,
      lg: 1024,
      xl: 1280,
      '2xl': 1536,
      '2.5xl': 1758,
      '3xl': 1980,
    });
    const values = Object.values(breakpoints);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it('matches the Tailwind theme in styles.css, name for name', () => {
    const declared = Object.fromEntries(
      [...styles.matchAll(/--breakpoint-([\w\\.]+):\s*(\d+)px;/g)].map((m) => [
        (m[1] ?? '').replace(/\\/g, ''),
        Number(m[2]),
      ]),
    );
    expect(declared).toEqual(breakpoints);
  });

  it('builds min-width media queries', () => {
    expect(getMinWidthQuery('2.5xl')).toBe('(min-width: 1758px)');
  });
});
