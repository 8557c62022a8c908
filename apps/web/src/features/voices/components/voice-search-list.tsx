import type { VoiceResponse } from '@parla/contracts';
import type { ReactNode } from 'react';
import { LoadError } from '../../../ui/load-error';
import { flattenVoicePages, useVoiceSearch, type VoiceSearchFilters } from '../api/search-voices';
import { usePreviewPlayer } from '../use-preview-player';
import { voicePreviewPlayback } from '../voice-playback';
import { VoiceListRow } from './voice-list-row';
import { LoadMoreButton, VoiceList, VoiceListSkeleton } from './voice-list-states';

export interface VoiceSearchListProps {
  filters: VoiceSearchFilters;
  /** The list's accessible name. */
  label: string;
  /** Shown when the list is empty. */
  empty: ReactNode;
  /** Buttons beside each voice. */
  renderActions?: (voice: VoiceResponse) => ReactNode;
}

/**
 * A voice list from `GET /v2/voices` with its states: loading rows, the server's error with a retry, the
 * empty state, the voices with their previews, and "Load more" while there are more pages.
 */
export function VoiceSearchList({ filters, label, empty, renderActions }: VoiceSearchListProps) {
  const preview = usePreviewPlayer();
  const list = useVoiceSearch(filters);
  const voices = flattenVoicePages(list.data);
  return (
    <>
      {list.isPending && <VoiceListSkeleton label={`Loading ${label.toLowerCase()}`} rows={3} />}
      {list.isError && !list.data && <LoadError error={list.error} onRetry={() => void list.refetch()} />}
      {list.isSuccess && voices.length === 0 && empty}
      {voices.length > 0 && (
        <VoiceList label={label} refreshing={list.isPlaceholderData}>
          {voices.map((voice) => {
            const playback = voicePreviewPlayback(voice);
            return (
              <VoiceListRow
                key={voice.voice_id}
                voice={voice}
                playing={preview.isPlaying(voice.voice_id)}
                onPreview={playback ? () => preview.toggle(playback) : undefined}
                actions={renderActions?.(voice)}
              />
            );
          })}
        </VoiceList>
      )}
      {list.isFetchNextPageError && (
        <LoadError error={list.error} onRetry={() => void list.fetchNextPage()} />
      )}
      {list.hasNextPage && !list.isFetchNextPageError && !list.isPlaceholderData && (
        <LoadMoreButton loading={list.isFetchingNextPage} onLoadMore={() => void list.fetchNextPage()} />
      )}
    </>
  );
}
