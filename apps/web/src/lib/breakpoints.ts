/**
 * Layout breakpoints in CSS pixels (accounts §9). The same values are the Tailwind `--breakpoint-*` theme
 * variables in `src/styles.css`; a test keeps the two in step.
 */
export const breakpoints = {
  xs: 480,
  sm: 640,
  md: 768,
  lg: 1024,
  xl: 1280,
  '2xl': 1536,
  '2.5xl': 1758,
  '3xl': 1980,
} as const;

export type Breakpoint = keyof typeof breakpoints;

/** The media query that matches from a breakpoint up, as Tailwind's `sm:`-style variants do. */
export function getMinWidthQuery(breakpoint: Breakpoint): string {
  return `(min-width: ${breakpoints[breakpoint]}px)`;
}
