import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { AnalyticsPeriod } from '../features/audio-native';
import {
  ANALYTICS_PERIODS,
  AnalyticsSummary,
  useAudioNativeAnalytics,
  useAudioNativeProject,
} from '../features/audio-native';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
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

function Analytics({ projectId }: { projectId: string }) {
  const [period, setPeriod] = useState<AnalyticsPeriod>('30');
  const analytics = useAudioNativeAnalytics(projectId, Number(period));
  const project = useAudioNativeProject(projectId);
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-10 sm:px-6">
      <nav aria-label="Audio Native" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <Link to="/app/audio-native" className="text-accent underline-offset-2 hover:underline">
          Audio Native
        </Link>
        <Link
          to={`/app/audio-native/${projectId}/settings`}
          className="text-accent underline-offset-2 hover:underline"
        >
          Settings
        </Link>
        <Link to="/app/audio-native/analytics" className="text-accent underline-offset-2 hover:underline">
          All players
        </Link>
      </nav>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <h1 className="text-3xl font-semibold tracking-tight">Analytics</h1>
          {project.data && <p className="break-words text-fg-muted">{project.data.name}</p>}
        </div>
        <SegmentedControl label="Period" value={period} onChange={setPeriod} options={ANALYTICS_PERIODS} />
      </header>
      {analytics.isPending ? (
        <Skeleton className="h-40" />
      ) : analytics.isError ? (
        <LoadError error={analytics.error} onRetry={() => void analytics.refetch()} />
      ) : (
        <AnalyticsSummary days={analytics.data.days} totals={analytics.data.totals} />
      )}
    </div>
  );
}
