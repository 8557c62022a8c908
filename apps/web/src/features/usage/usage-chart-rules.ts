const DAY_MS = 24 * 60 * 60 * 1000;

/** The key the API uses for "no breakdown", and the bucket that gathers the smaller series. */
export const otherSeriesKey = 'Other';

export interface UsageSeries {
  key: string;
  total: number;
  /** Index into the chart palette; fixed per position, so colours follow the size order. */
  colorIndex: number;
}

export interface UsageSegment {
  key: string;
  value: number;
  /** Where the segment starts, from the bottom of its bar, in credits. */
  offset: number;
}

export interface UsageDay {
  /** Start of the bucket, ms since epoch (UTC days). */
  time: number;
  total: number;
  /** Bottom to top, biggest series first. */
  segments: UsageSegment[];
}

export interface UsageChart {
  days: UsageDay[];
  series: UsageSeries[];
  total: number;
  /** The largest day's total. */
  max: number;
}

/**
 * The stacked bars of a character-stats answer: the series in order of size, the smallest folded into
 * "Other" past `maxSeries`, series that used nothing left out, and refunds that outweigh a day's
 * charges shown as nothing rather than a bar below the axis.
 */
export function buildUsageChart(
  stats: { time: readonly number[]; usage: Readonly<Record<string, readonly number[]>> },
  maxSeries = 6,
): UsageChart {
  const valueAt = (values: readonly number[], index: number) => Math.max(0, values[index] ?? 0);
  let entries = Object.entries(stats.usage)
    .map(([key, values]) => ({ key, values: stats.time.map((_, i) => valueAt(values, i)) }))
    .map((entry) => ({ ...entry, total: entry.values.reduce((sum, v) => sum + v, 0) }))
    .filter((entry) => entry.total > 0)
    .sort((a, b) => b.total - a.total || a.key.localeCompare(b.key));
  if (entries.length > maxSeries) {
    const rest = entries.slice(maxSeries - 1);
    const values = stats.time.map((_, i) => rest.reduce((sum, entry) => sum + (entry.values[i] ?? 0), 0));
    entries = [
      ...entries.slice(0, maxSeries - 1),
      { key: otherSeriesKey, values, total: rest.reduce((sum, entry) => sum + entry.total, 0) },
    ];
  }
  const days = stats.time.map((time, i) => {
    let offset = 0;
    const segments: UsageSegment[] = [];
    for (const entry of entries) {
      const value = entry.values[i] ?? 0;
      if (value > 0) segments.push({ key: entry.key, value, offset });
      offset += value;
    }
    return { time, total: offset, segments };
  });
  return {
    days,
    series: entries.map((entry, index) => ({ key: entry.key, total: entry.total, colorIndex: index })),
    total: entries.reduce((sum, entry) => sum + entry.total, 0),
    max: days.reduce((max, day) => Math.max(max, day.total), 0),
  };
}

/** A round step for about `count` axis ticks: 1, 2 or 5 times a power of ten. */
export function axisTicks(max: number, count = 4): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let tick = 0; tick <= top + step / 2; tick += step) ticks.push(Math.round(tick * 1e6) / 1e6);
  return ticks;
}

/** The window of the last `days` days up to `now`, in the milliseconds the usage call takes. */
export function usageWindow(days: number, now: number): { start_unix: number; end_unix: number } {
  const startOfToday = Math.floor(now / DAY_MS) * DAY_MS;
  const start = startOfToday - (days - 1) * DAY_MS;
  return { start_unix: start, end_unix: Math.max(now, start + 1) };
}

/** Every how many bars an axis label fits: about eight labels whatever the range. */
export function labelEvery(bars: number, labels = 8): number {
  return Math.max(1, Math.ceil(bars / labels));
}

/** The drawing of the chart at one width: its size, margins, label size and which days are labelled. */
export interface UsageChartLayout {
  width: number;
  height: number;
  pad: { top: number; right: number; bottom: number; left: number };
  /** The axis labels' size, in CSS pixels (the drawing is as wide as its box, one unit a pixel). */
  fontSize: number;
  /** Every how many bars a day is labelled. */
  labelEvery: number;
  /** Half a day label's width, to keep the first and last labels inside the drawing. */
  labelHalfWidth: number;
}

/** The room one day label ("Mar 14" at 12 px, about 40 px) takes with space around it. */
const DAY_LABEL_SPACING = 64;

/**
 * The chart's layout for a box `width` CSS pixels wide (issue 26 item 7: a 720-unit drawing shrunk into a
 * phone made 11-unit labels 5 px tall). Drawn at its real width, labels keep 12 px; as many days are
 * labelled as fit a label's width apart (4 of 30 at 390 px, 10 at 1440 px); a phone's chart is less tall.
 */
export function usageChartLayout(width: number, bars: number): UsageChartLayout {
  const w = Math.max(240, Math.round(width));
  const pad = { top: 12, right: 12, bottom: 28, left: 44 };
  const plotWidth = w - pad.left - pad.right;
  const labels = Math.max(2, Math.floor(plotWidth / DAY_LABEL_SPACING));
  return {
    width: w,
    height: w < 480 ? 200 : 260,
    pad,
    fontSize: 12,
    labelEvery: labelEvery(bars, labels),
    labelHalfWidth: 22,
  };
}
