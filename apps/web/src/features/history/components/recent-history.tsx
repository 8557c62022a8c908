import type { HistoryItemResponse, HistorySource } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { DownloadIcon, ShareIcon } from '../../../ui/icons';
import { Skeleton } from '../../../ui/skeleton';
import { getUserQueryOptions } from '../../users';
import { useHistoryList } from '../api/list-recent-history';
import { getShareButtonState } from '../history-rules';
import { useDownloadHistory } from '../use-download-history';
import { FeedbackControl } from './feedback-control';
import { ShareDialogs, type SharingState } from './share-dialogs';

/** How many of the latest items a page lists under its form. */
const recentCount = 10;

export interface RecentHistoryProps {
  source: HistorySource;
  title: string;
  /** The full history page of this source. */
  historyPath: string;
  /** What the list says before there is anything in it. */
  emptyText: string;
  /** A row's text: what it shows, and how its Play and Download buttons name it. */
  describe: (item: HistoryItemResponse) => { summary: ReactNode; name: string };
  onPlay: (item: HistoryItemResponse) => void;
  /** The item playing now, marked in the list. */
  playingId: string | null;
}

/**
 * The latest history items of one source, newest first, to play again, rate, download (through the
 * history download: history/voices §3 names, §8 errors) or share, as on the history page (§2 "Speech
 * history", "Share controls"; issue 18 item 8), with a link to the full history.
 */
export function RecentHistory({
  source,
  title,
  historyPath,
  emptyText,
  describe,
  onPlay,
  playingId,
}: RecentHistoryProps) {
  const history = useHistoryList({ source, page_size: recentCount });
  const download = useDownloadHistory();
  const user = useQuery(getUserQueryOptions());
  const feedbackEnabled = user.data?.feature_configs.feedback_enabled ?? false;
  const videoGeneration = user.data?.feature_configs.tts_video_generation ?? false;
  const tier = user.data?.subscription.tier;
  const [sharing, setSharing] = useState<SharingState | null>(null);
  const titleId = `recent-${source.toLowerCase()}-title`;

  return (
    <>
      <section aria-labelledby={titleId} className="flex flex-col gap-3">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          <Link
            to={historyPath}
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
            {emptyText}
          </p>
        )}
        {history.isSuccess && history.data.history.length > 0 && (
          <ul className="flex flex-col divide-y divide-line rounded-xl border border-line bg-surface">
            {history.data.history.map((item) => {
              const { summary, name } = describe(item);
              const share = getShareButtonState({ hasItem: true, tier, videoGeneration });
              return (
                <li
                  key={item.history_item_id}
                  className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-3"
                >
                  <div className="flex min-w-0 flex-1 flex-col gap-0.5">{summary}</div>
                  <div
                    role="toolbar"
                    aria-label={`Actions for ${name}`}
                    className="-ml-2 flex flex-wrap items-center gap-1 sm:ml-0 sm:shrink-0"
                  >
                    <Button
                      variant={playingId === item.history_item_id ? 'secondary' : 'ghost'}
                      size="sm"
                      aria-label={`Play ${name}`}
                      onClick={() => onPlay(item)}
                    >
                      Play
                    </Button>
                    {feedbackEnabled && (
                      <FeedbackControl historyItemId={item.history_item_id} text={item.text} />
                    )}
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Download ${name}`}
                      disabled={
                        download.isPending &&
                        download.variables?.[0]?.history_item_id === item.history_item_id
                      }
                      onClick={() => download.mutate([item])}
                    >
                      <DownloadIcon />
                      <span className="hidden sm:inline">Download</span>
                    </Button>
                    {share.visible && (
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Share ${name}`}
                        aria-haspopup="dialog"
                        disabled={share.disabled}
                        onClick={() => setSharing({ item, opens: share.opens })}
                      >
                        <ShareIcon />
                        <span className="hidden sm:inline">Share</span>
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      {/* Outside the section: the share area's toast list is no part of the recent list. */}
      <ShareDialogs
        sharing={sharing}
        onClose={() => setSharing(null)}
        onShareLink={() => setSharing((current) => (current ? { ...current, opens: 'link' } : current))}
      />
    </>
  );
}
