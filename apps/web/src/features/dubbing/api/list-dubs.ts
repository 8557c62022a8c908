import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { anyDubbing, DUBBING_POLL_MS } from '../dubbing-rules';
import { dubbingQueryKeys } from './dubbing-query-keys';
import { type ListDubbingResponse, listDubbingRoute } from './types';

/** How many dubs one page of the list asks for. */
export const DUBS_PAGE_SIZE = 20;

/** `GET /v1/dubbing`: one page of the workspace's dubs, newest first. */
export function listDubs(cursor: string | undefined, signal?: AbortSignal): Promise<ListDubbingResponse> {
  return apiRequest(listDubbingRoute, { query: { page_size: DUBS_PAGE_SIZE, cursor }, signal });
}

export function dubsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: dubbingQueryKeys.lists,
    queryFn: ({ pageParam, signal }) => listDubs(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
    // Polled every 2 s while any dub listed is still being made (its progress, then its end).
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => anyDubbing(page.dubs)) ? DUBBING_POLL_MS : false,
  });
}

export function useDubs() {
  return useInfiniteQuery(dubsQueryOptions());
}
