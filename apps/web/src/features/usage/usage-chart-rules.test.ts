import { describe, expect, it } from 'vitest';
import {
  axisTicks,
  buildUsageChart,
  labelEvery,
  otherSeriesKey,
  usageChartLayout,
  usageWindow,
} from './usage-chart-rules';

const DAY = 86_400_000;

describe('buildUsageChart', () => {
  it('stacks the series biggest first, per day, and totals them', () => {
    const chart = buildUsageChart({ time: [0, DAY], usage: { small: [1, 2], big: [10, 0], none: [0, 0] } });
    expect(chart.series.map((s) => [s.key, s.total])).toEqual([
      ['big', 10],
      ['small', 3],
    ]);
    expect(chart.days).toEqual([
      {
        time: 0,
        total: 11,
        segments: [
          { key: 'big', value: 10, offset: 0 },
          { key: 'small', value: 1, offset: 10 },
        ],
      },
      { time: DAY, total: 2, segments: [{ key: 'small', value: 2, offset: 0 }] },
    ]);
    expect([chart.total, chart.max]).toEqual([13, 11]);
  });

  it('folds the smallest series into "Other" past the limit, and shows refunds as nothing', () => {
    const usage = { a: [5], b: [4], c: [3], d: [-2] };
    const chart = buildUsageChart({ time: [0], usage }, 2);
    expect(chart.series.map((s) => [s.key, s.total])).toEqual([
      ['a', 5],
      [otherSeriesKey, 7],
    ]);
    expect(chart.total).toBe(12);
  });

  it('is empty when nothing was used', () => {
    const chart = buildUsageChart({ time: [0, DAY], usage: { All: [0, 0] } });
    expect([chart.series, chart.total, chart.max]).toEqual([[], 0, 0]);
  });
});

describe('axis and window', () => {
  it('picks round ticks that reach the top bar', () => {
    expect(axisTicks(0)).toEqual([0, 1]);
    expect(axisTicks(95)).toEqual([0, 50, 100]);
    expect(axisTicks(1234)).toEqual([0, 500, 1000, 1500]);
    expect(axisTicks(7)).toEqual([0, 2, 4, 6, 8]);
  });

  it('asks for whole UTC days up to now, in milliseconds', () => {
    const now = Date.UTC(2026, 10, 24, 15, 30);
    expect(usageWindow(7, now)).toEqual({ start_unix: Date.UTC(2026, 10, 18), end_unix: now });
  });

  it('labels about eight bars', () => {
    expect([labelEvery(7), labelEvery(30), labelEvery(90)]).toEqual([1, 4, 12]);
  });
});

describe('usageChartLayout (issue 26 item 7)', () => {
  const labelled = (width: number, bars: number) => {
    const layout = usageChartLayout(width, bars);
    return Math.ceil(bars / layout.labelEvery);
  };

  it('labels as many days as fit, a label apart, at 12 px whatever the width', () => {
    // 320–430 px phones: the card leaves about 250–360 px for the drawing.
    for (const width of [250, 318, 360]) {
      expect(labelled(width, 30)).toBeGreaterThanOrEqual(2);
      expect(labelled(width, 30)).toBeLessThanOrEqual(5);
      expect(usageChartLayout(width, 30).fontSize).toBe(12);
      expect(usageChartLayout(width, 30).height).toBe(200);
    }
    expect(labelled(318, 90)).toBeLessThanOrEqual(5);
    expect(labelled(1100, 30)).toBeGreaterThanOrEqual(10);
    expect(usageChartLayout(1100, 30).height).toBe(260);
  });

  it('never draws narrower than 240 units', () => {
    expect(usageChartLayout(100, 7).width).toBe(240);
  });
});
