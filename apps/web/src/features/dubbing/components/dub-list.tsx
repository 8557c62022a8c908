import { clsx } from 'clsx';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { collectPageItems } from '../../../lib/page-items';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { TrashIcon } from '../../../ui/icons';
import { PagedList } from '../../../ui/paged-list';
import { ProgressBar } from '../../../ui/progress-bar';
import { useDeleteDub } from '../api/delete-dub';
import { useDubbingLanguages } from '../api/get-dubbing-languages';
import { useDubs } from '../api/list-dubs';
import type { DubbingLanguageEntry, DubbingMetadata } from '../api/types';
import { dubbingLanguageName, formatClock, stageLabels } from '../dubbing-rules';

/** The path of a dub's editor. */
export function dubbingEditorPath(dubbingId: string): string {
  return `/app/dubbing/${encodeURIComponent(dubbingId)}`;
}

export interface DubListProps {
  /** A dub just started here, marked in the list. */
  highlightId?: string | null;
  /** The empty state's call to create the first dub. */
  onCreate: () => void;
}

/**
 * The workspace's dubs (issue 29 item 3), newest first: each with its languages and state — its progress
 * and the stage's message while it is made (the list is polled every 2 s meanwhile), its error and the
 * refund once failed — and ways to open its editor or delete it.
 */
export function DubList({ highlightId, onCreate }: DubListProps) {
  const id = useId();
  const { toast, toastError } = useToast();
  const pages = useDubs();
  const languages = useDubbingLanguages();
  const [toDelete, setToDelete] = useState<DubbingMetadata | null>(null);
  const remove = useDeleteDub();
  const items = useMemo(
    () =>
      collectPageItems(
        pages.data?.pages,
        (page) => page.dubs,
        (dub) => dub.dubbing_id,
      ),
    [pages.data],
  );

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
        Your dubs
      </h2>
      <PagedList
        pages={pages}
        empty={items.length === 0}
        loading={{ label: 'Loading dubs', rows: 3, lineWidths: ['w-2/3', 'w-1/3'] }}
        emptyClassName="gap-3 py-12"
        emptyState={
          <>
            <h3 className="text-base font-semibold">No dubs yet</h3>
            <p className="max-w-sm text-sm text-fg-muted">
              Upload a video or a recording and hear it spoken in another language, with a voice matched to
              each speaker. Then fix any line in the editor.
            </p>
            <Button onClick={onCreate}>Create your first dub</Button>
          </>
        }
      >
        {items.length > 0 && (
          <ul
            aria-label="Dubs"
            className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
          >
            {items.map((dub) => (
              <DubRow
                key={dub.dubbing_id}
                dub={dub}
                languages={languages.data}
                highlighted={dub.dubbing_id === highlightId}
                onDelete={() => setToDelete(dub)}
              />
            ))}
          </ul>
        )}
      </PagedList>
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.name}?` : 'Delete dub?'}
        description="The dub, its source file, its dubbed tracks and its renders are deleted for good."
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.dubbing_id, {
            onSuccess: () => {
              setToDelete(null);
              toast({ title: 'Dub deleted', variant: 'success' });
            },
            onError: (error) => toastError(error),
          })
        }
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}

const statusText: Record<DubbingMetadata['status'], string> = {
  dubbing: 'Dubbing',
  dubbed: 'Dubbed',
  failed: 'Failed',
};

function DubRow({
  dub,
  languages,
  highlighted,
  onDelete,
}: {
  dub: DubbingMetadata;
  languages: DubbingLanguageEntry[] | undefined;
  highlighted: boolean;
  onDelete: () => void;
}) {
  const source =
    dub.source_language && dub.source_language !== 'auto'
      ? dubbingLanguageName(dub.source_language, languages)
      : 'Detected language';
  const targets = dub.target_languages.map((code) => dubbingLanguageName(code, languages)).join(', ');
  const duration = dub.media_metadata?.duration ?? dub.usage.source_seconds;
  const details = [
    formatDate(fromUnixSeconds(dub.creation_date_unix)),
    duration > 0 ? formatClock(duration, false) : null,
    dub.input.kind === 'video' ? 'Video' : 'Audio',
    dub.status === 'failed' && dub.refunded
      ? 'credits refunded'
      : dub.usage.credits > 0
        ? `${dub.usage.credits.toLocaleString('en-US')} credits`
        : null,
  ].filter(Boolean);
  const percent = Math.round(Math.min(1, Math.max(0, dub.progress)) * 100);
  const openable = dub.status === 'dubbed';
  return (
    <li className={clsx('flex flex-col gap-3 px-4 py-4 sm:px-5', highlighted && 'bg-accent/5')}>
      <div className="flex items-start gap-3">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
            {openable ? (
              <Link
                to={dubbingEditorPath(dub.dubbing_id)}
                className="min-w-0 line-clamp-2 font-medium text-fg [overflow-wrap:anywhere] hover:underline"
              >
                {dub.name}
              </Link>
            ) : (
              <span className="min-w-0 line-clamp-2 font-medium text-fg [overflow-wrap:anywhere]">
                {dub.name}
              </span>
            )}
            <Badge
              dot
              tone={dub.status === 'dubbed' ? 'success' : dub.status === 'failed' ? 'danger' : 'accent'}
            >
              {statusText[dub.status]}
            </Badge>
          </div>
          <p className="text-sm text-fg">
            <span className="text-fg-muted">{source}</span>
            <span aria-hidden="true" className="px-1.5 text-fg-muted">
              →
            </span>
            <span className="sr-only"> into </span>
            {targets || '—'}
          </p>
          <p className="text-xs text-fg-muted tabular-nums">{details.join(' · ')}</p>
        </div>
        {openable && (
          <Button variant="secondary" size="sm" asChild className="hidden xs:inline-flex">
            <Link to={dubbingEditorPath(dub.dubbing_id)} aria-label={`Open ${dub.name} in the editor`}>
              Open editor
            </Link>
          </Button>
        )}
        <Button variant="ghost" size="icon" aria-label={`Delete ${dub.name}`} onClick={onDelete}>
          <TrashIcon aria-hidden="true" />
        </Button>
      </div>
      {dub.status === 'dubbing' && (
        <div className="flex flex-col gap-1.5">
          <div className="flex items-center gap-3">
            <ProgressBar label={`Dubbing ${dub.name}`} value={dub.progress} className="flex-1" />
            <span className="w-10 text-right text-xs font-medium text-fg-muted tabular-nums">{percent}%</span>
          </div>
          <p className="text-xs text-fg-muted" aria-live="polite">
            {dub.progress_message ?? stageLabels[dub.stage]}
          </p>
        </div>
      )}
      {dub.status === 'failed' && (
        <p role="note" className="rounded-lg bg-danger-soft px-3 py-2 text-sm text-danger">
          {dub.error ?? 'The dub failed.'}
          {dub.refunded ? ' Its credits were refunded.' : ''}
        </p>
      )}
    </li>
  );
}
