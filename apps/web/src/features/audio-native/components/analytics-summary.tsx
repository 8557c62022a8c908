import type { AudioNativeDay } from '@parla/contracts';
import { Card } from '../../../ui/card';
import { AnalyticsChart } from './analytics-chart';

const percent = (value: number | null) => (value === null ? '—' : `${Math.round(value * 100)}%`);

/**
 * A period's analytics (one player's, or the workspace's): the totals, then plays and listeners per day as
 * a chart and a table, or a sentence when nobody listened in the period.
 */
export function AnalyticsSummary({
  days,
  totals,
}: {
  days: readonly AudioNativeDay[];
  totals: Omit<AudioNativeDay, 'date'>;
}) {
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          ['Loads', String(totals.loads)],
          ['Plays', String(totals.plays)],
          ['Listeners', String(totals.listeners)],
          ['Listen-through', percent(totals.listen_through)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-xl border border-line bg-surface p-4 shadow-xs">
            <dt className="text-sm text-fg-muted">{label}</dt>
            <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {days.length === 0 ? (
        <Card className="p-6 text-fg-muted">No listening yet in this period.</Card>
      ) : (
        <Card className="flex min-w-0 flex-col gap-4 p-4">
          <AnalyticsChart days={[...days]} />
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Per day</caption>
              <thead>
                <tr className="text-left text-fg-muted">
                  {['Day', 'Loads', 'Plays', 'Listeners', 'Listened', 'Listen-through'].map((name) => (
                    <th key={name} scope="col" className="py-1 pr-3 font-medium whitespace-nowrap">
                      {name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.date} className="border-t border-line tabular-nums">
                    <th scope="row" className="py-1 pr-3 text-left font-normal whitespace-nowrap">
                      {d.date}
                    </th>
                    <td className="py-1 pr-3">{d.loads}</td>
                    <td className="py-1 pr-3">{d.plays}</td>
                    <td className="py-1 pr-3">{d.listeners}</td>
                    <td className="py-1 pr-3 whitespace-nowrap">{Math.round(d.listened_secs)} s</td>
                    <td className="py-1">{percent(d.listen_through)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
    </>
  );
}

export { percent as listenThroughText };
