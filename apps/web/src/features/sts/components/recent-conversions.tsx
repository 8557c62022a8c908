import type { HistoryItemResponse } from '@parla/contracts';
import { Link } from 'react-router';
import { formatDate, formatRelativeDate, fromUnixSeconds } from '../../../lib/format-date';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Skeleton } from '../../../ui/skeleton';
import { useDownloadHistory } from '../../history/use-download-history';
import { useHistoryList } from '../../tts/api/list-history';
import { formatClipDuration } from '../sts-rules';

/** How many of the latest conversions the page lists. */
const recentCount = 10;

export interface RecentConversionsProps {
  onPlay: (item: HistoryItemResponse) => void;
  /** The item playing now, marked in the list. */
  playingId: string | null;
}

/**
 * The latest speech-to-speech items of the workspace (history `source=STS`), newest first, to play again or
 * download. They have no text (history/voices §7), so a row names the voice, the time and the length.
 */
export function RecentConversions({ onPlay, playingId }: RecentConversionsProps) {
  const history = useHistoryList({ source: 'STS', page_size: recentCount });
  const download = useDownloadHistory();

  return (
    <section aria-labelledby="recent-conversions-title" className="flex flex-col gap-3">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="recent-conversions-title" className="text-base font-semibold">
          Recent conversions
        </h2>
        <Link
          to="/app/speech-synthesis/speech-to-speech/history"
          className="text-sm text-fg-muted underline-offset-4 hover:text-fg hover:underline"
        >
          View all history
        </Link>
      </div>
      {history.isPending && (
        <div className="flex flex-col gap-2" aria-busy="true">
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
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
          Your conversions will appear here. Choose or record a clip above and press Convert.
        </p>
      )}
      {history.isSuccess && history.data.history.length > 0 && (
        <ul className="flex flex-col divide-y divide-line rounded-xl border border-line bg-surface">
          {history.data.history.map((item) => {
            const date = fromUnixSeconds(item.date_unix);
            const name = `the conversion to ${item.voice_name}, ${formatDate(date)}`;
            return (
              <li key={item.history_item_id} className="flex items-center gap-3 px-4 py-3">
                <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <p className="truncate text-sm font-medium text-fg">{item.voice_name}</p>
                  <p className="text-xs text-fg-muted tabular-nums">
                    <time dateTime={date.toISOString()} title={formatDate(date)}>
                      {formatRelativeDate(date)}
                    </time>{' '}
                    · {formatClipDuration(item.duration_ms / 1000)}
                  </p>
                </div>
                <Button
                  variant={playingId === item.history_item_id ? 'secondary' : 'ghost'}
                  size="sm"
                  aria-label={`Play ${name}`}
                  onClick={() => onPlay(item)}
                >
                  Play
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Download ${name}`}
                  disabled={
                    download.isPending && download.variables?.[0]?.history_item_id === item.history_item_id
                  }
                  onClick={() => download.mutate([item])}
                >
                  Download
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
