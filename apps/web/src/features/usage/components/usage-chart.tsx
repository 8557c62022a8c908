import { clsx } from 'clsx';
import { useRef } from 'react';
import { useElementWidth } from '../../../lib/use-element-width';
import {
  axisTicks,
  otherSeriesKey,
  type UsageChart as UsageChartData,
  usageChartLayout,
} from '../usage-chart-rules';

/** Series colours, readable on both themes, and grey for "Other". Full class names, for Tailwind to find. */
const fills = [
  'fill-indigo-500',
  'fill-emerald-500',
  'fill-amber-500',
  'fill-rose-500',
  'fill-sky-500',
  'fill-violet-500',
];
const swatches = [
  'bg-indigo-500',
  'bg-emerald-500',
  'bg-amber-500',
  'bg-rose-500',
  'bg-sky-500',
  'bg-violet-500',
];
const otherFill = 'fill-zinc-400';
const otherSwatch = 'bg-zinc-400';

function fillOf(key: string, colorIndex: number): string {
  return key === otherSeriesKey ? otherFill : (fills[colorIndex % fills.length] ?? otherFill);
}

function swatchOf(key: string, colorIndex: number): string {
  return key === otherSeriesKey ? otherSwatch : (swatches[colorIndex % swatches.length] ?? otherSwatch);
}

const numbers = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
/** The buckets are UTC days (the usage call counts in UTC). */
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The width drawn at before the box is measured (and in tests without layout). */
const FALLBACK_WIDTH = 720;

export interface UsageChartProps {
  chart: UsageChartData;
  /** A readable name for a series key (model or voice name). */
  labelOf: (key: string) => string;
}

/** The colour index of a series. */
function colorOf(chart: UsageChartData, key: string): number {
  return chart.series.find((series) => series.key === key)?.colorIndex ?? 0;
}

/**
 * Credits per day as stacked bars in plain SVG, drawn at the width of its box so that its labels keep their
 * size on a phone (usageChartLayout). The drawing is one image whose title is a summary; the numbers
 * themselves are in the table below it for anyone who cannot see the bars.
 */
export function UsageChart({ chart, labelOf }: UsageChartProps) {
  const box = useRef<HTMLElement>(null);
  const layout = usageChartLayout(useElementWidth(box, FALLBACK_WIDTH), chart.days.length);
  const { width, height, pad, fontSize, labelHalfWidth } = layout;
  const ticks = axisTicks(chart.max);
  const top = ticks[ticks.length - 1] ?? 1;
  const plotWidth = width - pad.left - pad.right;
  const plotHeight = height - pad.top - pad.bottom;
  const slot = plotWidth / Math.max(1, chart.days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => pad.top + plotHeight - (value / top) * plotHeight;
  const every = layout.labelEvery;
  // A label centred under its bar, moved in where it would stick out of the drawing.
  const labelX = (index: number) =>
    Math.min(width - labelHalfWidth, Math.max(labelHalfWidth, pad.left + index * slot + slot / 2));
  const busiest = chart.days.reduce(
    (best, day) => (day.total > (best?.total ?? -1) ? day : best),
    chart.days[0],
  );
  const first = chart.days[0];
  const last = chart.days[chart.days.length - 1];
  const range = first && last ? ` from ${dayLabel.format(first.time)} to ${dayLabel.format(last.time)}` : '';
  const peak =
    busiest && busiest.total > 0
      ? `, most on ${dayLabel.format(busiest.time)} with ${numbers.format(busiest.total)}`
      : '';
  const summary = `Credits used per day${range}: ${numbers.format(chart.total)} in all${peak}.`;

  return (
    <figure ref={box} className="flex min-w-0 flex-col gap-4">
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        className="block h-auto max-w-full"
        role="img"
      >
        <title>{summary}</title>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={pad.left}
              x2={width - pad.right}
              y1={y(tick)}
              y2={y(tick)}
              className="stroke-line"
              strokeDasharray={tick === 0 ? undefined : '3 3'}
            />
            <text
              x={pad.left - 8}
              y={y(tick)}
              dy="0.32em"
              textAnchor="end"
              fontSize={fontSize}
              className="fill-fg-muted tabular-nums"
            >
              {compact.format(tick)}
            </text>
          </g>
        ))}
        {chart.days.map((day, index) => {
          const x = pad.left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={day.time}>
              <title>
                {`${dayLabel.format(day.time)}: ${numbers.format(day.total)} credits${day.segments
                  .map((segment) => `\n${labelOf(segment.key)}: ${numbers.format(segment.value)}`)
                  .join('')}`}
              </title>
              {/* A full-height hit area, so a day with a thin bar still shows its numbers on hover. */}
              <rect
                x={pad.left + index * slot}
                y={pad.top}
                width={slot}
                height={plotHeight}
                className="fill-transparent"
              />
              {day.segments.map((segment) => (
                <rect
                  key={segment.key}
                  x={x}
                  width={barWidth}
                  y={y(segment.offset + segment.value)}
                  height={Math.max(0, y(segment.offset) - y(segment.offset + segment.value))}
                  className={fillOf(segment.key, colorOf(chart, segment.key))}
                />
              ))}
              {/* Counted back from the last day, so today always has its label. */}
              {(chart.days.length - 1 - index) % every === 0 && (
                <text
                  data-axis="x"
                  x={labelX(index)}
                  y={height - pad.bottom + 18}
                  textAnchor="middle"
                  fontSize={fontSize}
                  className="fill-fg-muted"
                >
                  {dayLabel.format(day.time)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm" aria-label="Legend">
        {chart.series.map((series) => (
          <li key={series.key} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className={clsx('size-2.5 rounded-sm', swatchOf(series.key, series.colorIndex))}
            />
            <span>{labelOf(series.key)}</span>
            <span className="text-fg-muted tabular-nums">{numbers.format(series.total)}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** The chart's numbers as a table, one row per day and a column per series. */
export function UsageTable({ chart, labelOf }: UsageChartProps) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Credits used per day</caption>
        <thead className="border-b border-line text-fg-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Day
            </th>
            {chart.series.map((series) => (
              <th key={series.key} scope="col" className="px-3 py-2 text-right font-medium">
                {labelOf(series.key)}
              </th>
            ))}
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Total
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {chart.days.map((day) => (
            <tr key={day.time}>
              <th scope="row" className="px-3 py-2 font-normal whitespace-nowrap">
                {dayLabel.format(day.time)}
              </th>
              {chart.series.map((series) => (
                <td key={series.key} className="px-3 py-2 text-right tabular-nums">
                  {numbers.format(day.segments.find((segment) => segment.key === series.key)?.value ?? 0)}
                </td>
              ))}
              <td className="px-3 py-2 text-right font-medium tabular-nums">{numbers.format(day.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
