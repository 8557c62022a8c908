/** A moment as a Date or as epoch milliseconds. */
export type DateInput = Date | number;

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
const week = 7 * day;
/**
 * Months of 30 days and years of 365: a date one calendar year back (365 or 366 days) reads "1 year ago",
 * and twelve months (360 days), the bound of the month unit, already read as a year.
 */
const month = 30 * day;
const year = 365 * day;

export interface FormatDateOptions {
  locale?: string;
  /** IANA zone; the browser's zone when left out. */
  timeZone?: string;
}

/** Converts wire time (`*_unix` fields are seconds, ARCHITECTURE "Identifiers") to a Date. */
export function fromUnixSeconds(seconds: number): Date {
  return new Date(seconds * 1000);
}

/** Formats a moment as short month, day, year, hour and minute, e.g. "Mar 5, 2025, 2:07 PM" (accounts §9). */
export function formatDate(value: DateInput, { locale = 'en-US', timeZone }: FormatDateOptions = {}): string {
  return new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
  }).format(value);
}

/** The units of relative dates, each with its size and the bound under which it is used (accounts §9). */
const relativeUnits: ReadonlyArray<{ unit: Intl.RelativeTimeFormatUnit; size: number; bound: number }> = [
  { unit: 'second', size: second, bound: 60 * second },
  { unit: 'minute', size: minute, bound: 60 * minute },
  { unit: 'hour', size: hour, bound: 24 * hour },
  { unit: 'day', size: day, bound: 7 * day },
  { unit: 'week', size: week, bound: 4 * week },
  { unit: 'month', size: month, bound: 12 * month },
  { unit: 'year', size: year, bound: Number.POSITIVE_INFINITY },
];

/**
 * Picks the unit of a relative date (accounts §9): the first unit whose bound the distance is under
 * (60 s, 60 min, 24 h, 7 d, 4 weeks, 12 months, then years) with the count of whole units, never 0 beyond
 * seconds (28 and 29 days read "1 month", 360 to 364 days "1 year").
 */
export function getRelativeParts(
  value: DateInput,
  now: DateInput,
): { value: number; unit: Intl.RelativeTimeFormatUnit } {
  const diff = toMillis(value) - toMillis(now);
  const distance = Math.abs(diff);
  const choice = relativeUnits.find((candidate) => distance < candidate.bound);
  // Only NaN (an invalid Date) is under no bound: the year unit has none.
  if (!choice) throw new RangeError('Invalid date');
  const count = Math.floor(distance / choice.size);
  const whole = choice.unit === 'second' ? count : Math.max(1, count);
  // The present counts as past, so "now" reads "0 seconds ago" (-0 keeps the sign through Intl).
  const sign = diff > 0 ? 1 : -1;
  return { value: sign * whole, unit: choice.unit };
}

export interface FormatRelativeDateOptions {
  /** The moment to count from; now when left out. Tests pass a fixed one. */
  now?: DateInput;
  locale?: string;
  /** `always` gives "1 day ago"; `auto` gives "yesterday". */
  numeric?: Intl.RelativeTimeFormatNumeric;
}

/** Formats a moment relative to `now`, in the past or the future: "3 minutes ago", "in 2 weeks" (accounts §9). */
export function formatRelativeDate(
  value: DateInput,
  { now = Date.now(), locale = 'en-US', numeric = 'always' }: FormatRelativeDateOptions = {},
): string {
  const parts = getRelativeParts(value, now);
  return new Intl.RelativeTimeFormat(locale, { numeric }).format(parts.value, parts.unit);
}

function toMillis(value: DateInput): number {
  return typeof value === 'number' ? value : value.getTime();
}
