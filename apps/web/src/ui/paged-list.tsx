import { clsx } from 'clsx';
import type { ReactNode, Ref } from 'react';
import { Button } from './button';
import { SpinnerIcon } from './icons';
import { LoadError } from './load-error';
import { SkeletonRow } from './skeleton';

/** What a paged list reads of its query: the state of a TanStack infinite query. */
export interface PagedQuery {
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  data: unknown;
  error: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  /** The previous filters' pages stand in while the new ones load: their "more" is not the new one's. */
  isPlaceholderData: boolean;
  fetchNextPage: () => unknown;
}

export interface PagedListProps {
  pages: PagedQuery;
  /** The loaded pages hold no item (the empty state shows). */
  empty: boolean;
  /** The skeleton rows while the first page loads, and their name for assistive technology. */
  loading: { label: string; rows: number; lineWidths: [string, string] };
  /** What an empty list says: a heading, a line, maybe an action. */
  emptyState: ReactNode;
  /** The empty box's spacing (gap, padding). */
  emptyClassName?: string;
  /** On the "Load more" row: a list that loads on scroll watches it (features' useLoadMoreOnScroll). */
  loadMoreRef?: Ref<HTMLDivElement>;
  /** The items. */
  children: ReactNode;
}

/**
 * The states around a list loaded a page at a time (the speech history, the transcripts): skeleton rows
 * first, the error with "Try again", the empty state, the items, then "Load more" (or the next page's
 * error). Siblings in the caller's column, so its gap spaces them.
 */
export function PagedList({
  pages,
  empty,
  loading,
  emptyState,
  emptyClassName,
  loadMoreRef,
  children,
}: PagedListProps) {
  return (
    <>
      {pages.isPending && (
        <ul aria-busy="true" aria-label={loading.label} className="flex flex-col gap-3">
          {Array.from({ length: loading.rows }, (_, row) => row).map((row) => (
            <SkeletonRow
              key={row}
              lineWidths={loading.lineWidths}
              className="rounded-xl border border-line bg-surface"
            />
          ))}
        </ul>
      )}

      {pages.isError && !pages.data && <LoadError error={pages.error} onRetry={() => void pages.refetch()} />}

      {pages.isSuccess && empty && (
        <div
          className={clsx(
            'flex flex-col items-center rounded-xl border border-dashed border-line px-6 text-center',
            emptyClassName,
          )}
        >
          {emptyState}
        </div>
      )}

      {children}

      {pages.isFetchNextPageError && (
        <LoadError error={pages.error} onRetry={() => void pages.fetchNextPage()} />
      )}
      {pages.hasNextPage && !pages.isFetchNextPageError && !pages.isPlaceholderData && (
        <div ref={loadMoreRef} className="flex justify-center">
          <Button
            variant="secondary"
            disabled={pages.isFetchingNextPage}
            aria-busy={pages.isFetchingNextPage}
            onClick={() => void pages.fetchNextPage()}
          >
            {pages.isFetchingNextPage && <SpinnerIcon className="motion-safe:animate-spin" />}
            {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      )}
    </>
  );
}
