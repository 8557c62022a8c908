import { clsx } from 'clsx';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { collectPageItems } from '../../../lib/page-items';
import { useToast } from '../../../lib/toasts/use-toast';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { TrashIcon } from '../../../ui/icons';
import { PagedList } from '../../../ui/paged-list';
import { ProgressBar } from '../../../ui/progress-bar';
import { SearchField } from '../../../ui/search-field';
import { useDeleteTranscript } from '../api/delete-transcript';
import { useTranscripts } from '../api/list-transcripts';
import type { TranscriptListItem } from '../api/types';
import { describeTranscriptStatus, formatTimestamp, sttLanguageName } from '../stt-rules';

/** How long typing must pause before the search goes to the server. */
const SEARCH_DEBOUNCE_MS = 300;

/** The path of a transcript's page. */
export function transcriptPath(transcriptionId: string): string {
  return `/app/speech-to-text/${encodeURIComponent(transcriptionId)}`;
}

export interface TranscriptListProps {
  /** A transcript just started here, marked in the list. */
  highlightId?: string | null;
}

/**
 * The workspace's transcripts (issue 19 item 6), newest first, searched by title on the server: each with
 * its state — its progress while it is being made (the list is polled meanwhile), its error once failed —
 * and a way to open or delete it; "Load more" for older ones.
 */
export function TranscriptList({ highlightId }: TranscriptListProps) {
  const id = useId();
  const { toast, toastError } = useToast();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const pages = useTranscripts(search);
  const [toDelete, setToDelete] = useState<TranscriptListItem | null>(null);
  const remove = useDeleteTranscript();

  const items = useMemo(
    () =>
      collectPageItems(
        pages.data?.pages,
        (page) => page.transcripts,
        (item) => item.transcription_id,
      ),
    [pages.data],
  );

  const handleConfirmDelete = (item: TranscriptListItem) =>
    remove.mutate(item.transcription_id, {
      onSuccess: () => {
        setToDelete(null);
        toast({ title: 'Transcript deleted', variant: 'success' });
      },
      onError: (error) => toastError(error),
    });

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
          Transcripts
        </h2>
        <search className="sm:w-72">
          <SearchField
            id={`${id}-search`}
            label="Search transcripts"
            value={searchInput}
            onChange={setSearchInput}
            placeholder="Search by title"
          />
        </search>
      </div>

      <PagedList
        pages={pages}
        empty={items.length === 0}
        loading={{ label: 'Loading transcripts', rows: 3, lineWidths: ['w-2/3', 'w-1/3'] }}
        emptyClassName="gap-2 py-12"
        emptyState={
          search ? (
            <>
              <h3 className="text-base font-semibold">No transcripts match</h3>
              <p className="max-w-sm text-sm text-fg-muted">No title contains “{search}”.</p>
              <Button variant="secondary" onClick={() => setSearchInput('')}>
                Clear search
              </Button>
            </>
          ) : (
            <>
              <h3 className="text-base font-semibold">No transcripts yet</h3>
              <p className="max-w-sm text-sm text-fg-muted">
                Upload or record audio above: its transcript is kept here, to read along with the audio,
                search, and export as text or subtitles.
              </p>
            </>
          )
        }
      >
        {items.length > 0 && (
          <ul
            aria-label="Transcripts"
            aria-busy={pages.isPlaceholderData || undefined}
            className={clsx(
              'flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface transition-opacity',
              pages.isPlaceholderData && 'opacity-60',
            )}
          >
            {items.map((item) => (
              <TranscriptRow
                key={item.transcription_id}
                item={item}
                highlighted={item.transcription_id === highlightId}
                onDelete={() => setToDelete(item)}
              />
            ))}
          </ul>
        )}
      </PagedList>

      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.name}?` : 'Delete transcript?'}
        description="The transcript and its audio are deleted for good."
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => toDelete && handleConfirmDelete(toDelete)}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}

function TranscriptRow({
  item,
  highlighted,
  onDelete,
}: {
  item: TranscriptListItem;
  highlighted: boolean;
  onDelete: () => void;
}) {
  const details = [
    formatDate(fromUnixSeconds(item.created_at_unix)),
    item.audio_duration_secs !== null ? formatTimestamp(item.audio_duration_secs) : null,
    sttLanguageName(item.language_code),
    item.created_by_name ? `by ${item.created_by_name}` : null,
  ].filter(Boolean);
  return (
    <li className={clsx('flex flex-col gap-3 px-4 py-4 sm:px-5', highlighted && 'bg-accent/5')}>
      <div className="flex items-start gap-3">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
            {item.status === 'completed' ? (
              <Link
                to={transcriptPath(item.transcription_id)}
                className="min-w-0 line-clamp-2 font-medium text-fg [overflow-wrap:anywhere] hover:underline"
              >
                {item.name}
              </Link>
            ) : (
              <span className="min-w-0 line-clamp-2 font-medium text-fg [overflow-wrap:anywhere]">
                {item.name}
              </span>
            )}
            <Badge
              dot
              tone={item.status === 'completed' ? 'success' : item.status === 'failed' ? 'danger' : 'accent'}
            >
              {item.status === 'processing' ? 'Transcribing' : describeTranscriptStatus(item)}
            </Badge>
          </div>
          <p className="text-xs text-fg-muted tabular-nums">{details.join(' · ')}</p>
        </div>
        {item.status === 'completed' && (
          <Button variant="secondary" size="sm" asChild className="hidden xs:inline-flex">
            <Link to={transcriptPath(item.transcription_id)} aria-label={`Open ${item.name}`}>
              Open
            </Link>
          </Button>
        )}
        <Button variant="ghost" size="icon" aria-label={`Delete ${item.name}`} onClick={onDelete}>
          <TrashIcon aria-hidden="true" />
        </Button>
      </div>
      {item.status === 'processing' && (
        <div className="flex items-center gap-3">
          <ProgressBar label={`Transcribing ${item.name}`} value={item.progress} className="flex-1" />
          <span className="w-10 text-right text-xs font-medium text-fg-muted tabular-nums">
            {Math.round(Math.min(1, Math.max(0, item.progress)) * 100)}%
          </span>
        </div>
      )}
      {item.status === 'failed' && (
        <p role="note" className="rounded-lg bg-danger-soft px-3 py-2 text-sm text-danger">
          {item.error ?? 'The transcription failed.'} Upload the file again to retry, or try another file.
        </p>
      )}
    </li>
  );
}
