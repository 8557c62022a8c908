import { describe, expect, it } from 'vitest';
import { formatDate, formatRelativeDate, fromUnixSeconds, getRelativeParts } from './format-date';

const now = Date.UTC(2025, 5, 15, 12, 0, 0); // 15 June 2025, 12:00 UTC
const s = 1000;
const min = 60 * s;
const h = 60 * min;
const d = 24 * h;

/** Formats a moment `offset` ms from `now` (negative is the past). */
const rel = (offset: number, locale?: string) => formatRelativeDate(now + offset, { now, locale });

describe('formatDate (accounts §9 default format)', () => {
  it('shows short month, day, year, hour and minute in en-US by default', () => {
    const text = formatDate(Date.UTC(2025, 2, 5, 14, 7), { timeZone: 'UTC' });
    // ICU separates the day period with a narrow no-break space.
    expect(text.replace(/\s/g, ' ')).toBe('Mar 5, 2025, 2:07 PM');
  });

  it('accepts a Date and epoch milliseconds alike', () => {
    const ms = Date.UTC(2024, 11, 31, 23, 59);
    expect(formatDate(new Date(ms), { timeZone: 'UTC' })).toBe(formatDate(ms, { timeZone: 'UTC' }));
  });

  it('follows the locale', () => {
    expect(formatDate(Date.UTC(2025, 2, 5, 14, 7), { locale: 'de-DE', timeZone: 'UTC' })).toBe(
      '5. März 2025, 14:07',
    );
  });

  it('reads wire time in unix seconds', () => {
    expect(fromUnixSeconds(1_700_000_000).getTime()).toBe(1_700_000_000_000);
  });
});

describe('formatRelativeDate: the largest unit under its bound (accounts §9)', () => {
  it.each([
    [0, '0 seconds ago'],
    [-1 * s, '1 second ago'],
    [-59 * s, '59 seconds ago'],
    [-59 * s - 999, '59 seconds ago'],
    [-60 * s, '1 minute ago'],
    [-119 * s, '1 minute ago'],
    [-59 * min, '59 minutes ago'],
    [-60 * min, '1 hour ago'],
    [-23 * h, '23 hours ago'],
    [-(24 * h - 1), '23 hours ago'],
    [-24 * h, '1 day ago'],
    [-6 * d, '6 days ago'],
    [-7 * d, '1 week ago'],
    [-13 * d, '1 week ago'],
    [-14 * d, '2 weeks ago'],
    [-27 * d, '3 weeks ago'],
    [-28 * d, '1 month ago'],
    [-29 * d, '1 month ago'],
    [-45 * d, '1 month ago'],
    [-60 * d, '2 months ago'],
    [-330 * d, '11 months ago'],
    [-359 * d, '11 months ago'],
    [-360 * d, '1 year ago'],
    [-365 * d, '1 year ago'],
    [-366 * d, '1 year ago'],
    [-730 * d, '2 years ago'],
    [-10 * 365 * d, '10 years ago'],
  ])('%d ms from now reads "%s"', (offset, expected) => {
    expect(rel(offset)).toBe(expected);
  });

  it.each([
    [1, 'in 0 seconds'],
    [30 * s, 'in 30 seconds'],
    [59 * s, 'in 59 seconds'],
    [60 * s, 'in 1 minute'],
    [5 * min, 'in 5 minutes'],
    [23 * h, 'in 23 hours'],
    [24 * h, 'in 1 day'],
    [6 * d, 'in 6 days'],
    [7 * d, 'in 1 week'],
    [27 * d, 'in 3 weeks'],
    [28 * d, 'in 1 month'],
    [11 * 30 * d, 'in 11 months'],
    [12 * 30 * d, 'in 1 year'],
    [3 * 365 * d, 'in 3 years'],
  ])('%d ms ahead reads "%s"', (offset, expected) => {
    expect(rel(offset)).toBe(expected);
  });

  it('picks the unit at every bound: just under stays, the bound itself moves up', () => {
    const bounds: Array<[number, string, string]> = [
      [60 * s, 'second', 'minute'],
      [60 * min, 'minute', 'hour'],
      [24 * h, 'hour', 'day'],
      [7 * d, 'day', 'week'],
      [28 * d, 'week', 'month'],
      [360 * d, 'month', 'year'],
    ];
    for (const [bound, below, at] of bounds) {
      for (const sign of [-1, 1]) {
        expect(getRelativeParts(now + sign * (bound - 1), now).unit).toBe(below);
        expect(getRelativeParts(now + sign * bound, now).unit).toBe(at);
      }
    }
  });

  it('uses Date objects and a locale', () => {
    expect(formatRelativeDate(new Date(now - 3 * d), { now: new Date(now), locale: 'fr' })).toBe(
      'il y a 3 jours',
    );
    expect(rel(-2 * h, 'de')).toBe('vor 2 Stunden');
  });

  it('can say "yesterday" when asked for auto wording', () => {
    expect(formatRelativeDate(now - d, { now, numeric: 'auto' })).toBe('yesterday');
  });

  it('counts from the real clock when no now is given', () => {
    expect(formatRelativeDate(Date.now() - 5 * min)).toBe('5 minutes ago');
  });

  it('refuses an invalid date', () => {
    expect(() => formatRelativeDate(new Date('nope'), { now })).toThrow(RangeError);
  });
});
