import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { AnalyticsChart, useAudioNativeAnalytics } from '../features/audio-native';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { Card } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { SegmentedControl } from '../ui/segmented-control';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/audio-native/{id}/analytics` (issue 30 item 4; accounts §2 "analytics"): loads, plays, listeners
 * and listen-through per day, as a chart and a table.
 */
export default function AudioNativeAnalyticsPage() {
  const { projectId = '' } = useParams();
  return (
    <RequireSignIn>
      <Analytics projectId={projectId} />
    </RequireSignIn>
  );
}

const percent = (value: number | null) => (value === null ? '—' : `${Math.round(value * 100)}%`);
const PERIODS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
] as const;

function Analytics({ projectId }: { projectId: string }) {
  const [period, setPeriod] = useState<'7' | '30' | '90'>('30');
  const analytics = useAudioNativeAnalytics(projectId, Number(period));
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-10 sm:px-6">
      <nav className="flex gap-4 text-sm">
        <Link to="/app/audio-native" className="text-accent underline-offset-2 hover:underline">
          Audio Native
        </Link>
        <Link
          to={`/app/audio-native/${projectId}/settings`}
          className="text-accent underline-offset-2 hover:underline"
        >
          Settings
        </Link>
      </nav>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-semibold tracking-tight">Analytics</h1>
        <SegmentedControl label="Period" value={period} onChange={setPeriod} options={PERIODS} />
      </header>
      {analytics.isPending ? (
        <Skeleton className="h-40" />
      ) : analytics.isError ? (
        <LoadError error={analytics.error} onRetry={() => void analytics.refetch()} />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {[
              ['Loads', String(analytics.data.totals.loads)],
              ['Plays', String(analytics.data.totals.plays)],
              ['Listeners', String(analytics.data.totals.listeners)],
              ['Listen-through', percent(analytics.data.totals.listen_through)],
            ].map(([label, value]) => (
              <div key={label} className="rounded-xl border border-line bg-surface p-4 shadow-xs">
                <dt className="text-sm text-fg-muted">{label}</dt>
                <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          {analytics.data.days.length === 0 ? (
            <Card className="p-6 text-fg-muted">No listening yet in this period.</Card>
          ) : (
            <Card className="flex flex-col gap-4 p-4">
              <AnalyticsChart days={analytics.data.days} />
              <div className="overflow-x-auto">
                <table className="w-full text-sm">
                  <caption className="sr-only">Per day</caption>
                  <thead>
                    <tr className="text-left text-fg-muted">
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Day
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Loads
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Plays
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Listeners
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Listened
                      </th>
                      <th scope="col" className="py-1 font-medium">
                        Listen-through
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {analytics.data.days.map((d) => (
                      <tr key={d.date} className="border-t border-line tabular-nums">
                        <th scope="row" className="py-1 pr-3 text-left font-normal">
                          {d.date}
                        </th>
                        <td className="py-1 pr-3">{d.loads}</td>
                        <td className="py-1 pr-3">{d.plays}</td>
                        <td className="py-1 pr-3">{d.listeners}</td>
                        <td className="py-1 pr-3">{Math.round(d.listened_secs)} s</td>
                        <td className="py-1">{percent(d.listen_through)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Card>
          )}
        </>
      )}
    </div>
  );
}
