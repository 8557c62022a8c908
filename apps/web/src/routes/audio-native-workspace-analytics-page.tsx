import { useState } from 'react';
import { Link } from 'react-router';
import {
  ANALYTICS_PERIODS,
  type AnalyticsPeriod,
  AnalyticsSummary,
  combineAnalytics,
  listenThroughText,
  useAudioNativeAnalyticsOf,
  useAudioNativeProjects,
} from '../features/audio-native';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { Card } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { SegmentedControl } from '../ui/segmented-control';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/audio-native/analytics` (accounts §2 "audio-native (… analytics)"): the workspace's listening
 * across all its players — the totals and the days added up, then each player's share with a link to its
 * own analytics (`/app/audio-native/{id}/analytics`).
 */
export default function AudioNativeWorkspaceAnalyticsPage() {
  return (
    <RequireSignIn>
      <WorkspaceAnalytics />
    </RequireSignIn>
  );
}

const linkClass = 'text-accent underline-offset-2 hover:underline';

function WorkspaceAnalytics() {
  const [period, setPeriod] = useState<AnalyticsPeriod>('30');
  const projects = useAudioNativeProjects();
  const list = projects.data?.projects ?? [];
  const analytics = useAudioNativeAnalyticsOf(
    list.map((p) => p.project_id),
    Number(period),
  );
  const failed = analytics.find((a) => a.isError);
  const loaded = analytics.flatMap((a) => (a.data ? [a.data] : []));
  const combined = combineAnalytics(loaded);
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-10 sm:px-6">
      <nav aria-label="Audio Native" className="flex gap-4 text-sm">
        <Link to="/app/audio-native" className={linkClass}>
          Audio Native
        </Link>
      </nav>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h1 className="text-3xl font-semibold tracking-tight">Analytics</h1>
          <p className="text-fg-muted">Loads, plays and listeners of every player in the workspace.</p>
        </div>
        <SegmentedControl label="Period" value={period} onChange={setPeriod} options={ANALYTICS_PERIODS} />
      </header>
      {projects.isPending || (analytics.some((a) => a.isPending) && !failed) ? (
        <Skeleton className="h-40" />
      ) : projects.isError ? (
        <LoadError error={projects.error} onRetry={() => void projects.refetch()} />
      ) : failed?.error ? (
        <LoadError
          error={failed.error}
          onRetry={() => {
            for (const a of analytics) if (a.isError) void a.refetch();
          }}
        />
      ) : list.length === 0 ? (
        <Card className="p-6 text-fg-muted">
          <p className="font-medium text-fg">No players yet</p>
          <p className="mt-1 text-sm">
            <Link to="/app/audio-native" className={linkClass}>
              Create a player
            </Link>{' '}
            from an article; its listening shows here once it is embedded on your site.
          </p>
        </Card>
      ) : (
        <>
          <AnalyticsSummary days={combined.days} totals={combined.totals} />
          <section aria-labelledby="an-by-player" className="flex flex-col gap-3">
            <h2 id="an-by-player" className="text-lg font-semibold">
              By player
            </h2>
            <Card className="overflow-x-auto p-4">
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left text-fg-muted">
                    {['Player', 'Loads', 'Plays', 'Listeners', 'Listen-through'].map((name) => (
                      <th key={name} scope="col" className="py-1 pr-3 font-medium whitespace-nowrap">
                        {name}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {list.map((p, index) => {
                    const totals = analytics[index]?.data?.totals;
                    return (
                      <tr key={p.project_id} className="border-t border-line tabular-nums">
                        <th scope="row" className="max-w-64 py-1 pr-3 text-left font-normal">
                          <Link to={`/app/audio-native/${p.project_id}/analytics`} className={linkClass}>
                            <span className="block truncate">{p.name}</span>
                          </Link>
                        </th>
                        <td className="py-1 pr-3">{totals?.loads ?? '—'}</td>
                        <td className="py-1 pr-3">{totals?.plays ?? '—'}</td>
                        <td className="py-1 pr-3">{totals?.listeners ?? '—'}</td>
                        <td className="py-1">{listenThroughText(totals?.listen_through ?? null)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </Card>
          </section>
        </>
      )}
    </div>
  );
}
