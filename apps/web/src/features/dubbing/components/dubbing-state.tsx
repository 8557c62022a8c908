import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LoadError } from '../../../ui/load-error';
import { ProgressBar } from '../../../ui/progress-bar';
import { Skeleton } from '../../../ui/skeleton';
import type { DubbingMetadata, DubbingResource } from '../api/types';
import { stageLabels } from '../dubbing-rules';

/** The editor's page until the editor can show: loading, a load error, the dub's progress or its failure. */
export function DubbingState({
  dub,
  resource,
}: {
  dub: UseQueryResult<DubbingMetadata>;
  resource: UseQueryResult<DubbingResource>;
}) {
  const back = (
    <Link to="/app/dubbing" className="self-start text-sm text-fg-muted hover:text-fg hover:underline">
      ← All dubs
    </Link>
  );
  if (dub.isError)
    return (
      <div className="flex flex-col gap-4">
        {back}
        <h1 className="text-2xl font-semibold tracking-tight">Dub not found</h1>
        <LoadError error={dub.error} onRetry={() => void dub.refetch()} />
      </div>
    );
  if (resource.isError)
    return (
      <div className="flex flex-col gap-4">
        {back}
        <h1 className="text-2xl font-semibold tracking-tight">{dub.data?.name ?? 'Dub'}</h1>
        <LoadError error={resource.error} onRetry={() => void resource.refetch()} />
      </div>
    );
  const data = dub.data;
  if (data?.status === 'dubbing')
    return (
      <div className="flex max-w-2xl flex-col gap-4">
        {back}
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{data.name}</h1>
        <p className="text-sm text-fg-muted">The editor opens once the dub is made.</p>
        <ProgressBar label={`Dubbing ${data.name}`} value={data.progress} />
        <p className="text-sm text-fg" aria-live="polite">
          {Math.round(data.progress * 100)}% · {data.progress_message ?? stageLabels[data.stage]}
        </p>
      </div>
    );
  if (data?.status === 'failed')
    return (
      <div className="flex max-w-2xl flex-col gap-4">
        {back}
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{data.name}</h1>
        <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 text-sm text-danger">
          {data.error ?? 'The dub failed.'}
          {data.refunded ? ' Its credits were refunded.' : ''}
        </p>
      </div>
    );
  return (
    <div className="flex flex-col gap-6" aria-busy="true">
      <span className="sr-only">Loading the dub…</span>
      <Skeleton className="h-8 w-64" />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[3fr_2fr]">
        <Skeleton className="aspect-video w-full rounded-xl" />
        <Skeleton className="h-64 w-full rounded-xl" />
      </div>
      <Skeleton className="h-40 w-full rounded-xl" />
    </div>
  );
}
