import { sharedVoicesRoute } from '@parla/contracts';
import {
  type InfiniteData,
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
} from '@tanstack/react-query';
import { type ApiResponse, apiRequest } from '../../../lib/api-client';
import { type LibraryFilters, toSharedVoicesQuery } from '../library-rules';
import { voiceQueryKeys } from './voice-query-keys';

export type SharedVoicesPage = ApiResponse<typeof sharedVoicesRoute>;

/** `GET /v1/shared-voices`: one page of the voice library. */
export function listSharedVoices(
  filters: LibraryFilters,
  page: number,
  signal?: AbortSignal,
): Promise<SharedVoicesPage> {
  return apiRequest(sharedVoicesRoute, { query: toSharedVoicesQuery(filters, page), signal });
}

/** The library's pages, numbered from 0 while `has_more`. */
export function sharedVoicesQueryOptions(filters: LibraryFilters) {
  const key = { ...filters, search: filters.search.trim() };
  return infiniteQueryOptions({
    queryKey: voiceQueryKeys.shared(key),
    queryFn: ({ pageParam, signal }) => listSharedVoices(key, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last, _pages, lastPage) => (last.has_more ? lastPage + 1 : undefined),
  });
}

/** The library for the filters; while new filters load, the last list stays up. */
export function useSharedVoices(filters: LibraryFilters) {
  return useInfiniteQuery({ ...sharedVoicesQueryOptions(filters), placeholderData: keepPreviousData });
}

/** The shared voices of every loaded page, each once. */
export function flattenSharedVoicePages(data: InfiniteData<SharedVoicesPage> | undefined) {
  const seen = new Map<string, SharedVoicesPage['voices'][number]>();
  for (const page of data?.pages ?? []) {
    for (const voice of page.voices) if (!seen.has(voice.voice_id)) seen.set(voice.voice_id, voice);
  }
  return [...seen.values()];
}
