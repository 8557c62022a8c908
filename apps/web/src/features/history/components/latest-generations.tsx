import type { HistoryItemResponse, SubscriptionTier } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { getButtonClasses } from '../../../ui/button';
import { LoadError } from '../../../ui/load-error';
import { SkeletonRow } from '../../../ui/skeleton';
import { listHistoryQueryOptions } from '../api/list-recent-history';
import { getShareButtonState, historyPagePaths } from '../history-rules';
import { useDownloadHistory } from '../use-download-history';
import { useMinuteClock } from '../use-minute-clock';
import { HistoryItemRow } from './history-item-row';
import { ShareDialogs, type SharingState } from './share-dialogs';

/** How many of the newest generations the list shows. */
const latestCount = 5;

/** The list's query: the page's own, and what the router asks for before the page has loaded. */
export function latestGenerationsQueryOptions() {
  return listHistoryQueryOptions({ page_size: latestCount });
}

export interface LatestGenerationsProps {
  /** The history item in the bottom player while it plays. */
  playingId: string | null;
  /** Plays an item in the bottom player, or pauses it when it is the one playing. */
  onPlay: (item: HistoryItemResponse) => void;
  /** history/voices §6: the feedback_enabled feature config. */
  feedbackEnabled: boolean;
  /** The workspace's tier: enterprise-tier workspaces do not see Share without the flag (§6). */
  tier: SubscriptionTier | undefined;
  /** history/voices §2: the tts-video-generation flag; Share opens the video dialog when it is on. */
  videoGeneration: boolean;
}

/** What made an item, as the app names the product. */
function productOf(item: HistoryItemResponse): string {
  if (item.source === 'STS') return 'Speech to speech';
  return item.dialogue?.length ? 'Text to dialogue' : 'Text to speech';
}

/**
 * The workspace's newest generations of every kind (history/voices §2 "Speech history"), for the home
 * page: each can be played in the bottom player, rated, downloaded and shared as on the history page, with
 * the way to the whole history. A new workspace sees where to make its first one.
 */
export function LatestGenerations({
  playingId,
  onPlay,
  feedbackEnabled,
  tier,
  videoGeneration,
}: LatestGenerationsProps) {
  const history = useQuery(latestGenerationsQueryOptions());
  const download = useDownloadHistory();
  const [sharing, setSharing] = useState<SharingState | null>(null);
  const now = useMinuteClock();
  const items = history.data?.history ?? [];

  return (
    <>
      <section aria-labelledby="latest-generations-title" className="flex min-w-0 flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h2 id="latest-generations-title" className="text-lg font-semibold tracking-tight">
            Recent generations
          </h2>
          {items.length > 0 && (
            <Link
              to={historyPagePaths.TTS}
              className="rounded-sm text-sm text-fg-muted underline-offset-4 hover:text-fg hover:underline"
            >
              View all history
            </Link>
          )}
        </div>

        {history.isPending && (
          <ul aria-busy="true" aria-label="Loading recent generations" className="flex flex-col gap-2">
            {[0, 1, 2].map((row) => (
              <SkeletonRow
                key={row}
                lineWidths={['w-11/12', 'w-1/3']}
                className="rounded-xl border border-line bg-surface"
              />
            ))}
          </ul>
        )}

        {history.isError && <LoadError error={history.error} onRetry={() => void history.refetch()} />}

        {history.isSuccess && items.length === 0 && (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-line px-6 py-12 text-center">
            <h3 className="text-base font-semibold">Nothing generated yet</h3>
            <p className="max-w-sm text-sm text-fg-muted">
              Speech you generate shows up here, to play again, rate, download or share.
            </p>
            <Link to="/app/speech-synthesis/text-to-speech" className={getButtonClasses('primary', 'md')}>
              Generate your first speech
            </Link>
          </div>
        )}

        {items.length > 0 && (
          <ul className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface">
            {items.map((item) => (
              <HistoryItemRow
                key={item.history_item_id}
                item={item}
                madeWith={productOf(item)}
                playing={playingId === item.history_item_id}
                onPlay={() => onPlay(item)}
                onDownload={() => download.mutate([item])}
                downloading={
                  download.isPending && download.variables?.[0]?.history_item_id === item.history_item_id
                }
                share={getShareButtonState({ hasItem: item.history_item_id !== '', tier, videoGeneration })}
                onShare={() => setSharing({ item, opens: videoGeneration ? 'video' : 'link' })}
                feedbackEnabled={feedbackEnabled}
                now={now}
                compact
              />
            ))}
          </ul>
        )}
      </section>
      {/* Outside the section: the share area's toast list is not one of its lists. */}
      <ShareDialogs
        sharing={sharing}
        onClose={() => setSharing(null)}
        onShareLink={() => setSharing((current) => (current ? { ...current, opens: 'link' } : current))}
      />
    </>
  );
}
