import {
  HISTORY_DOWNLOAD_MAX_ITEMS,
  type HistoryItemResponse,
  type HistorySource,
  type SubscriptionTier,
} from '@parla/contracts';
import { clsx } from 'clsx';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { collectPageItems } from '../../../lib/page-items';
import { useToast } from '../../../lib/toasts/use-toast';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Button, getButtonClasses } from '../../../ui/button';
import { inputClasses } from '../../../ui/field';
import { DownloadIcon, SpinnerIcon } from '../../../ui/icons';
import { PagedList } from '../../../ui/paged-list';
import { SearchField } from '../../../ui/search-field';
import { useDeleteHistoryItem } from '../api/delete-history-item';
import { useHistoryPages } from '../api/list-history-pages';
import { getShareButtonState, groupHistoryByDay } from '../history-rules';
import { useDownloadHistory } from '../use-download-history';
import { useLoadMoreOnScroll } from '../use-load-more-on-scroll';
import { useMinuteClock } from '../use-minute-clock';
import { DeleteHistoryDialog } from './delete-history-dialog';
import { HistoryItemRow } from './history-item-row';
import { ShareDialogs, type SharingState } from './share-dialogs';

/** How long typing must pause before the search goes to the server. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface SpeechHistoryProps {
  source: HistorySource;
  /** The voices to filter by (the voices the caller may use). */
  voices: ReadonlyArray<{ voice_id: string; name: string }>;
  /** Display names of models by id; an unknown model shows its id. */
  modelNames: ReadonlyMap<string, string>;
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

/**
 * The speech history (history/voices §2 "Speech history"): the items of one source grouped by day, searched
 * on the server (debounced) and filtered by voice, loaded a page at a time as the list scrolls (or by
 * "Load more"); each item can be played, rated, downloaded, shared and deleted, and several can be
 * selected and downloaded as a zip.
 */
export function SpeechHistory({
  source,
  voices,
  modelNames,
  playingId,
  onPlay,
  feedbackEnabled,
  tier,
  videoGeneration,
}: SpeechHistoryProps) {
  const id = useId();
  const { toast, toastError } = useToast();
  const now = useMinuteClock();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [voiceId, setVoiceId] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [toDelete, setToDelete] = useState<HistoryItemResponse | null>(null);
  const [sharing, setSharing] = useState<SharingState | null>(null);

  const pages = useHistoryPages({ source, voiceId, search });
  const items = useMemo(
    () =>
      collectPageItems(
        pages.data?.pages,
        (page) => page.history,
        (item) => item.history_item_id,
      ),
    [pages.data],
  );
  const groups = useMemo(() => groupHistoryByDay(items, { now }), [items, now]);
  const selectedItems = items.filter((item) => selected.has(item.history_item_id));
  const filtered = search !== '' || voiceId !== '';

  const download = useDownloadHistory();
  const downloadingIds = download.isPending
    ? new Set(download.variables.map((item) => item.history_item_id))
    : new Set<string>();

  const remove = useDeleteHistoryItem();
  const handleConfirmDelete = (item: HistoryItemResponse) => {
    remove.mutate(item.history_item_id, {
      onSuccess: () => {
        setToDelete(null);
        setSelected((current) => {
          const next = new Set(current);
          next.delete(item.history_item_id);
          return next;
        });
        toast({ title: 'Generation deleted', variant: 'success' });
      },
      onError: (error) => toastError(error),
    });
  };

  const setItemSelected = (historyItemId: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(historyItemId);
      else next.delete(historyItemId);
      return next;
    });
  const allSelected = items.length > 0 && selectedItems.length === items.length;
  const someSelected = selectedItems.length > 0 && !allSelected;
  const selectAllRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = someSelected;
  }, [someSelected]);
  const tooManySelected = selectedItems.length > HISTORY_DOWNLOAD_MAX_ITEMS;

  // Not while the previous filters' list stands in for the new one: its "more" belongs to the old filters.
  const canLoadMore =
    pages.hasNextPage && !pages.isFetchingNextPage && !pages.isFetchNextPageError && !pages.isPlaceholderData;
  const sentinel = useLoadMoreOnScroll<HTMLDivElement>(canLoadMore, () => void pages.fetchNextPage());

  const clearFilters = () => {
    setSearchInput('');
    setVoiceId('');
  };

  return (
    <div className="flex flex-col gap-5">
      <search className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <SearchField
          id={`${id}-search`}
          label="Search"
          showLabel
          value={searchInput}
          onChange={setSearchInput}
          placeholder="Words in the text"
          className="flex-1"
        />
        <div className="flex flex-col gap-1.5 sm:w-64">
          <label htmlFor={`${id}-voice`} className="text-sm font-medium text-fg">
            Voice
          </label>
          <select
            id={`${id}-voice`}
            value={voiceId}
            onChange={(event) => setVoiceId(event.target.value)}
            className={inputClasses}
          >
            <option value="">All voices</option>
            {voices.map((voice) => (
              <option key={voice.voice_id} value={voice.voice_id}>
                {voice.name}
              </option>
            ))}
          </select>
        </div>
      </search>

      {items.length > 0 && (
        <div className="flex min-h-10 flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-line bg-surface px-4 py-2">
          <label className="flex cursor-pointer items-center gap-2 text-sm text-fg">
            <input
              ref={selectAllRef}
              type="checkbox"
              checked={allSelected}
              onChange={(event) =>
                setSelected(
                  event.target.checked ? new Set(items.map((item) => item.history_item_id)) : new Set(),
                )
              }
              className="size-4 cursor-pointer accent-accent"
            />
            Select all
          </label>
          <p className="text-sm text-fg-muted tabular-nums" aria-live="polite">
            {selectedItems.length > 0 ? `${selectedItems.length} selected` : ''}
          </p>
          {selectedItems.length > 0 && (
            <div className="ml-auto flex flex-wrap items-center gap-2">
              {tooManySelected && (
                <p className="text-sm text-warning">
                  At most {HISTORY_DOWNLOAD_MAX_ITEMS} items can be downloaded at once.
                </p>
              )}
              <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
                Clear selection
              </Button>
              <Button
                size="sm"
                disabled={tooManySelected || download.isPending}
                aria-busy={download.isPending}
                onClick={() => download.mutate(selectedItems)}
              >
                {download.isPending ? <SpinnerIcon className="motion-safe:animate-spin" /> : <DownloadIcon />}
                {selectedItems.length === 1 ? 'Download selected' : `Download ${selectedItems.length} as zip`}
              </Button>
            </div>
          )}
        </div>
      )}

      <PagedList
        pages={pages}
        empty={items.length === 0}
        loading={{ label: 'Loading history', rows: 4, lineWidths: ['w-11/12', 'w-1/3'] }}
        emptyClassName="gap-3 py-14"
        emptyState={
          filtered ? (
            <>
              <h2 className="text-base font-semibold">No generations match</h2>
              <p className="max-w-sm text-sm text-fg-muted">Try other words, or another voice.</p>
              <Button variant="secondary" onClick={clearFilters}>
                Clear filters
              </Button>
            </>
          ) : (
            <>
              <h2 className="text-base font-semibold">No generations yet</h2>
              <p className="max-w-sm text-sm text-fg-muted">
                Everything you generate with {source === 'TTS' ? 'text to speech' : 'speech to speech'} is
                kept here, to play again, download or share.
              </p>
              {source === 'TTS' && (
                <Link to="/app/speech-synthesis/text-to-speech" className={getButtonClasses('primary', 'md')}>
                  Generate speech
                </Link>
              )}
            </>
          )
        }
        loadMoreRef={sentinel}
      >
        {groups.map((group) => (
          <section
            key={group.key}
            aria-labelledby={`${id}-${group.key}`}
            aria-busy={pages.isPlaceholderData || undefined}
            className={clsx(
              'flex flex-col gap-2 transition-opacity',
              pages.isPlaceholderData && 'opacity-60',
            )}
          >
            <h2 id={`${id}-${group.key}`} className="text-sm font-semibold text-fg-muted">
              {group.heading}
            </h2>
            <ul className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface">
              {group.items.map((item) => (
                <HistoryItemRow
                  key={item.history_item_id}
                  item={item}
                  madeWith={modelNames.get(item.model_id) ?? item.model_id}
                  playing={playingId === item.history_item_id}
                  selection={{
                    selected: selected.has(item.history_item_id),
                    onChange: (on) => setItemSelected(item.history_item_id, on),
                  }}
                  onPlay={() => onPlay(item)}
                  onDownload={() => download.mutate([item])}
                  downloading={downloadingIds.size === 1 && downloadingIds.has(item.history_item_id)}
                  onDelete={() => setToDelete(item)}
                  share={getShareButtonState({ hasItem: item.history_item_id !== '', tier, videoGeneration })}
                  onShare={() => setSharing({ item, opens: videoGeneration ? 'video' : 'link' })}
                  feedbackEnabled={feedbackEnabled}
                  now={now}
                />
              ))}
            </ul>
          </section>
        ))}
      </PagedList>

      <DeleteHistoryDialog
        item={toDelete}
        pending={remove.isPending}
        onConfirm={handleConfirmDelete}
        onCancel={() => setToDelete(null)}
      />
      <ShareDialogs
        sharing={sharing}
        onClose={() => setSharing(null)}
        onShareLink={() => setSharing((current) => (current ? { ...current, opens: 'link' } : current))}
      />
    </div>
  );
}
