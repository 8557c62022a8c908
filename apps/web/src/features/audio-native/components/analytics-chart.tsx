import type { AudioNativeDay } from '@parla/contracts';

const HEIGHT = 160;
const PAD = { top: 12, bottom: 24, left: 32, right: 8 };
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Plays and listeners per day as paired bars in plain SVG (the web app has no charting library; the usage
 * page draws its chart the same way). The numbers are also in the table beside it.
 */
export function AnalyticsChart({ days }: { days: AudioNativeDay[] }) {
  const width = Math.max(320, days.length * 28 + PAD.left + PAD.right);
  const max = Math.max(1, ...days.map((d) => Math.max(d.plays, d.listeners)));
  const plot = HEIGHT - PAD.top - PAD.bottom;
  const slot = (width - PAD.left - PAD.right) / Math.max(1, days.length);
  const bar = Math.min(24, Math.max(3, slot * 0.35));
  const y = (value: number) => PAD.top + plot - (value / max) * plot;
  const total = days.reduce((sum, d) => sum + d.plays, 0);
  return (
    <figure className="flex flex-col gap-2">
      <div className="overflow-x-auto">
        <svg
          role="img"
          aria-label={`Plays and listeners per day: ${total} plays over ${days.length} days`}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          width={width}
          height={HEIGHT}
          className="text-fg-muted"
        >
          <line x1={PAD.left} x2={width - PAD.right} y1={y(0)} y2={y(0)} className="stroke-line" />
          <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" fontSize="10" fill="currentColor">
            {max}
          </text>
          {days.map((d, i) => {
            const x = PAD.left + i * slot + (slot - 2 * bar) / 2;
            return (
              <g key={d.date}>
                <rect x={x} y={y(d.plays)} width={bar} height={y(0) - y(d.plays)} className="fill-indigo-500">
                  <title>{`${d.date}: ${d.plays} plays`}</title>
                </rect>
                <rect
                  x={x + bar}
                  y={y(d.listeners)}
                  width={bar}
                  height={y(0) - y(d.listeners)}
                  className="fill-emerald-500"
                >
                  <title>{`${d.date}: ${d.listeners} listeners`}</title>
                </rect>
                {days.length <= 14 || i % Math.ceil(days.length / 10) === 0 ? (
                  <text x={x + bar} y={HEIGHT - 6} textAnchor="middle" fontSize="10" fill="currentColor">
                    {dayLabel.format(new Date(`${d.date}T00:00:00Z`))}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption className="flex gap-4 text-sm text-fg-muted">
        <span className="flex items-center gap-1.5">
          <span className="size-3 rounded-sm bg-indigo-500" aria-hidden="true" /> Plays
        </span>
        <span className="flex items-center gap-1.5">
          <span className="size-3 rounded-sm bg-emerald-500" aria-hidden="true" /> Listeners
        </span>
      </figcaption>
    </figure>
  );
}
