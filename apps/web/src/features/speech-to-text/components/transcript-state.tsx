import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { isHttpError } from '../../../lib/http-error';
import { getButtonClasses } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { LoadError } from '../../../ui/load-error';
import { ProgressBar } from '../../../ui/progress-bar';
import { Skeleton } from '../../../ui/skeleton';
import type { TranscriptDetails, TranscriptResponse } from '../api/types';

export interface TranscriptStateProps {
  details: UseQueryResult<TranscriptDetails>;
  transcript: UseQueryResult<TranscriptResponse>;
}

function BackLink() {
  return (
    <Link to="/app/speech-to-text" className="w-fit text-sm font-medium text-fg-muted hover:text-fg">
      ← All transcripts
    </Link>
  );
}

/**
 * A transcript page before its words can show: loading, not found (or another workspace's), still being
 * made (its progress, followed by polling), failed (its error), or a load that failed (try again).
 */
export function TranscriptState({ details, transcript }: TranscriptStateProps) {
  if (details.isError) {
    const missing =
      isHttpError(details.error) && (details.error.status === 404 || details.error.status === 403);
    return (
      <div className="flex flex-col gap-4">
        <BackLink />
        {missing ? (
          <Card className="flex flex-col items-start gap-3 p-6">
            <h1 className="text-xl font-semibold">Transcript not found</h1>
            <p className="text-sm text-fg-muted">
              It may have been deleted, or it belongs to another workspace.
            </p>
            <Link to="/app/speech-to-text" className={getButtonClasses('secondary', 'md')}>
              See all transcripts
            </Link>
          </Card>
        ) : (
          <LoadError error={details.error} onRetry={() => void details.refetch()} />
        )}
      </div>
    );
  }
  const data = details.data;
  if (data?.status === 'processing') {
    const percent = Math.round(Math.min(1, Math.max(0, data.progress)) * 100);
    return (
      <div className="flex flex-col gap-4">
        <BackLink />
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{data.name}</h1>
        <Card className="flex flex-col gap-3 p-6" aria-live="polite">
          <div className="flex items-center justify-between gap-3 text-sm">
            <span className="font-medium">Transcribing…</span>
            <span className="text-fg-muted tabular-nums">{percent}%</span>
          </div>
          <ProgressBar label={`Transcribing ${data.name}`} value={data.progress} />
          <p className="text-sm text-fg-muted">
            You can leave this page: the transcription goes on, and it is listed when ready.
          </p>
        </Card>
      </div>
    );
  }
  if (data?.status === 'failed') {
    return (
      <div className="flex flex-col gap-4">
        <BackLink />
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{data.name}</h1>
        <Card className="flex flex-col items-start gap-3 p-6">
          <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 text-sm text-danger">
            {data.error ?? 'The transcription failed.'}
          </p>
          <p className="text-sm text-fg-muted">Upload the file again to retry, or try another file.</p>
          <Link to="/app/speech-to-text" className={getButtonClasses('secondary', 'md')}>
            Back to transcripts
          </Link>
        </Card>
      </div>
    );
  }
  if (data && transcript.isError) {
    return (
      <div className="flex flex-col gap-4">
        <BackLink />
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{data.name}</h1>
        <LoadError error={transcript.error} onRetry={() => void transcript.refetch()} />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <p className="sr-only">Loading the transcript…</p>
      <Skeleton className="h-4 w-28" />
      <Skeleton className="h-8 w-2/3 max-w-md" />
      <Skeleton className="h-4 w-1/2 max-w-sm" />
      <Card className="flex flex-col gap-4 p-5">
        {[0, 1, 2, 3].map((row) => (
          <div key={row} className="flex flex-col gap-2">
            <Skeleton className="h-3 w-24" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
          </div>
        ))}
      </Card>
    </div>
  );
}
