import type { HistoryItemResponse } from '@parla/contracts';
import { Link } from 'react-router';
import { formatDate, formatRelativeDate, fromUnixSeconds } from '../../../lib/format-date';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Skeleton } from '../../../ui/skeleton';
import { useDownloadHistory } from '../../history/use-download-history';
import { useHistoryList } from '../api/list-history';

/** How many of the latest generations the page lists. */
const recentCount = 10;

export interface RecentGenerationsProps {
  onPlay: (item: HistoryItemResponse) => void;
  /** The item playing now, marked in the list. */
  playingId: string | null;
}

/** The latest text-to-speech generations of the workspace, newest first, to play again or download. */
export function RecentGenerations({ onPlay, playingId }: RecentGenerationsProps) {
  const history = useHistoryList({ source: 'TTS', page_size: recentCount });
  // The history download: history/voices §3 names, §8 errors.
  const download = useDownloadHistory();

  return (
    <section aria-labelledby="recent-title" className="flex flex-col gap-3">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="recent-title" className="text-base font-semibold">
          Recent generations
        </h2>
        <Link
          to="/app/speech-synthesis/text-to-speech/history"
          className="text-sm text-fg-muted underline-offset-4 hover:text-fg hover:underline"
        >
          View all history
        </Link>
      </div>
      {history.isPending && (
        <div className="flex flex-col gap-2" aria-busy="true">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      )}
      {history.isError && (
        <div className="flex items-center justify-between gap-3 rounded-lg border border-line px-4 py-3 text-sm">
          <span className="text-danger">{getToastMessage(history.error)}</span>
          <Button variant="secondary" size="sm" onClick={() => void history.refetch()}>
            Try again
          </Button>
        </div>
      )}
      {history.isSuccess && history.data.history.length === 0 && (
        <p className="rounded-lg border border-dashed border-line px-4 py-8 text-center text-sm text-fg-muted">
          Your generations will appear here. Type some text above and press Generate.
        </p>
      )}
      {history.isSuccess && history.data.history.length > 0 && (
        <ul className="flex flex-col divide-y divide-line rounded-xl border border-line bg-surface">
          {history.data.history.map((item) => (
            <li key={item.history_item_id} className="flex items-center gap-3 px-4 py-3">
              <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                <p className="line-clamp-2 text-sm text-fg">{item.text}</p>
                <p className="text-xs text-fg-muted">
                  {item.voice_name} ·{' '}
                  <time
                    dateTime={fromUnixSeconds(item.date_unix).toISOString()}
                    title={formatDate(fromUnixSeconds(item.date_unix))}
                  >
                    {formatRelativeDate(fromUnixSeconds(item.date_unix))}
                  </time>{' '}
                  · {(item.duration_ms / 1000).toFixed(1)} s
                </p>
              </div>
              <Button
                variant={playingId === item.history_item_id ? 'secondary' : 'ghost'}
                size="sm"
                aria-label={`Play “${shorten(item.text)}”`}
                onClick={() => onPlay(item)}
              >
                Play
              </Button>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Download “${shorten(item.text)}”`}
                disabled={
                  download.isPending && download.variables?.[0]?.history_item_id === item.history_item_id
                }
                onClick={() => download.mutate([item])}
              >
                Download
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
