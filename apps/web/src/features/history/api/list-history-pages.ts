import { type HistorySource, type ListHistoryResponse, listHistoryRoute } from '@parla/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** How many items one page of the history list asks for. */
export const HISTORY_PAGE_SIZE = 30;

/** What the history page filters by (history/voices §7 `GET /v1/history` query). */
export interface HistoryFilters {
  source: HistorySource;
  voiceId?: string | undefined;
  /** Words the item's text contains; the server searches. */
  search?: string | undefined;
}

/** `GET /v1/history` (history/voices §7): one page, after `startAfter` (the previous page's last item). */
export function listHistoryPage(
  { source, voiceId, search }: HistoryFilters,
  startAfter: string | undefined,
  signal?: AbortSignal,
): Promise<ListHistoryResponse> {
  return apiRequest(listHistoryRoute, {
    query: {
      page_size: HISTORY_PAGE_SIZE,
      source,
      voice_id: voiceId || undefined,
      search: search?.trim() || undefined,
      start_after_history_item_id: startAfter,
    },
    signal,
  });
}

/**
 * The pages of the history list, keyset by the last item listed while `has_more`. Under `['history']`,
 * which the player invalidates once a new item is stored.
 */
export function historyPagesQueryOptions(filters: HistoryFilters) {
  return infiniteQueryOptions({
    queryKey: [
      'history',
      'pages',
      { source: filters.source, voiceId: filters.voiceId || null, search: filters.search?.trim() || null },
    ] as const,
    queryFn: ({ pageParam, signal }) => listHistoryPage(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    // After the last item still listed, not the page's `last_history_item_id`: an item deleted from the
    // list is gone on the server too, and a page after it would be refused (404).
    getNextPageParam: (last, pages) =>
      last.has_more ? pages.flatMap((page) => page.history).at(-1)?.history_item_id : undefined,
  });
}

/** The pages for the filters; while new filters load, the last list stays up (dimmed by the page). */
export function useHistoryPages(filters: HistoryFilters) {
  return useInfiniteQuery({ ...historyPagesQueryOptions(filters), placeholderData: keepPreviousData });
}
