import type { LibraryVoice } from '@parla/contracts';
import { clsx } from 'clsx';
import { useState } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useUser } from '../features/users/api/get-user';
import { flattenSharedVoicePages, useSharedVoices } from '../features/voices/api/list-shared-voices';
import { AddLibraryVoiceDialog } from '../features/voices/components/add-library-voice-dialog';
import { LibraryFiltersBar } from '../features/voices/components/library-filters';
import { LibraryVoiceCard } from '../features/voices/components/library-voice-card';
import { EmptyState, LoadMoreButton } from '../features/voices/components/voice-list-states';
import { VoicesPageHeader } from '../features/voices/components/voices-nav';
import {
  emptyLibraryFilters,
  hasLibraryFilters,
  type LibraryFilters,
} from '../features/voices/library-rules';
import { usePreviewPlayer } from '../features/voices/use-preview-player';
import { voicePreviewPlayback } from '../features/voices/voice-playback';
import { VOICE_SEARCH_DEBOUNCE_MS } from '../features/voices/voice-rules';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { Button, getButtonClasses } from '../ui/button';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/voice-library` (history/voices §2 voice library): the server's built-in voices (marked Built-in) and
 * the voices people on this server share, searched (debounced), filtered and sorted, a page at a time; each
 * can be heard and added under a name.
 */
export default function VoiceLibraryPage() {
  return (
    <RequireSignIn>
      <VoiceLibrary />
    </RequireSignIn>
  );
}

function VoiceLibrary() {
  const user = useUser();
  const preview = usePreviewPlayer();
  const [filters, setFilters] = useState<LibraryFilters>(emptyLibraryFilters);
  const search = useDebouncedValue(filters.search.trim(), VOICE_SEARCH_DEBOUNCE_MS);
  const [adding, setAdding] = useState<LibraryVoice | null>(null);

  const library = useSharedVoices({ ...filters, search });
  const voices = flattenSharedVoicePages(library.data);
  const filtered = hasLibraryFilters({ ...filters, search });
  const total = library.data?.pages[0]?.total_count;
  const publicUserId = user.data?.public_user_id;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <VoicesPageHeader
        title="Voice library"
        description="Built-in voices that come with this server, and voices people here share. Listen, then add the ones you like to your voices."
      />
      <LibraryFiltersBar
        value={filters}
        onChange={setFilters}
        onClear={() => setFilters(emptyLibraryFilters)}
      />

      {library.isSuccess && total !== undefined && voices.length > 0 && (
        <p className="text-sm text-fg-muted tabular-nums" aria-live="polite">
          {total} {total === 1 ? 'voice' : 'voices'}
        </p>
      )}

      {library.isPending && (
        <ul
          aria-busy="true"
          aria-label="Loading the library"
          className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
        >
          {[0, 1, 2, 3, 4, 5].map((cell) => (
            <li key={cell} className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4">
              <div className="flex gap-3">
                <Skeleton className="size-9 rounded-full" />
                <div className="flex flex-1 flex-col gap-2">
                  <Skeleton className="h-4 w-1/2" />
                  <Skeleton className="h-3 w-3/4" />
                </div>
              </div>
              <Skeleton className="h-10 w-full" />
            </li>
          ))}
        </ul>
      )}
      {library.isError && !library.data && (
        <LoadError error={library.error} onRetry={() => void library.refetch()} />
      )}
      {library.isSuccess &&
        voices.length === 0 &&
        (filtered ? (
          <EmptyState
            title="No voices match"
            actions={
              <Button variant="secondary" onClick={() => setFilters(emptyLibraryFilters)}>
                Clear filters
              </Button>
            }
          >
            Try other words or fewer filters.
          </EmptyState>
        ) : (
          <EmptyState
            title="The library is empty"
            actions={
              <Link to="/app/voice-lab" className={getButtonClasses('primary', 'md')}>
                Go to the voice lab
              </Link>
            }
          >
            Nobody on this server has shared a voice yet. Share one of your own from the voice lab and it
            appears here.
          </EmptyState>
        ))}
      {voices.length > 0 && (
        <ul
          aria-label="Shared voices"
          aria-busy={library.isPlaceholderData || undefined}
          className={clsx(
            'grid grid-cols-1 gap-4 transition-opacity sm:grid-cols-2 lg:grid-cols-3',
            library.isPlaceholderData && 'opacity-60',
          )}
        >
          {voices.map((voice) => {
            const playback = voicePreviewPlayback(voice);
            return (
              <LibraryVoiceCard
                key={voice.voice_id}
                voice={voice}
                own={publicUserId !== undefined && voice.public_owner_id === publicUserId}
                playing={preview.isPlaying(voice.voice_id)}
                onPreview={playback ? () => preview.toggle(playback) : undefined}
                onAdd={() => setAdding(voice)}
              />
            );
          })}
        </ul>
      )}
      {library.isFetchNextPageError && (
        <LoadError error={library.error} onRetry={() => void library.fetchNextPage()} />
      )}
      {library.hasNextPage && !library.isFetchNextPageError && !library.isPlaceholderData && (
        <LoadMoreButton
          loading={library.isFetchingNextPage}
          onLoadMore={() => void library.fetchNextPage()}
        />
      )}

      <AddLibraryVoiceDialog voice={adding} onClose={() => setAdding(null)} />
    </div>
  );
}
