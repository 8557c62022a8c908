import { searchVoicesRoute, type VoiceResponse } from '@parla/contracts';
import {
  type InfiniteData,
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
} from '@tanstack/react-query';
import { type ApiResponse, apiRequest } from '../../../lib/api-client';
import { type VoiceSearchFilters, voiceQueryKeys } from './voice-query-keys';

/** Voices a page of `GET /v2/voices` asks for (history/voices §9: 20 by default, the server's page 100). */
export const VOICE_PAGE_SIZE = 50;

/** The filters' type lives with the query keys (voice-query-keys.ts); the list components take it from here. */
export type { VoiceSearchFilters };

export type VoiceSearchPage = ApiResponse<typeof searchVoicesRoute>;

/** `GET /v2/voices` (history/voices §7): one page of the voices matching the filters. */
export function searchVoices(
  filters: VoiceSearchFilters,
  pageToken: string | undefined,
  signal?: AbortSignal,
): Promise<VoiceSearchPage> {
  return apiRequest(searchVoicesRoute, {
    query: {
      search: filters.search?.trim() || undefined,
      voice_type: filters.voiceType,
      category: filters.category,
      collection_id: filters.collectionId,
      sort: filters.sort,
      sort_direction: filters.sortDirection,
      page_size: VOICE_PAGE_SIZE,
      next_page_token: pageToken,
    },
    signal,
  });
}

/** The pages of a voice list, continued by the server's `next_page_token`. */
export function searchVoicesQueryOptions(filters: VoiceSearchFilters) {
  const key: VoiceSearchFilters = { ...filters, search: filters.search?.trim() || undefined };
  return infiniteQueryOptions({
    queryKey: voiceQueryKeys.search(key),
    queryFn: ({ pageParam, signal }) => searchVoices(key, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? (last.next_page_token ?? undefined) : undefined),
  });
}

/** A voice list; while new filters load, the last list stays up. */
export function useVoiceSearch(filters: VoiceSearchFilters) {
  return useInfiniteQuery({ ...searchVoicesQueryOptions(filters), placeholderData: keepPreviousData });
}

/** The voices of every loaded page, each once. */
export function flattenVoicePages(data: InfiniteData<VoiceSearchPage> | undefined): VoiceResponse[] {
  const seen = new Map<string, VoiceResponse>();
  for (const page of data?.pages ?? []) {
    for (const voice of page.voices) if (!seen.has(voice.voice_id)) seen.set(voice.voice_id, voice);
  }
  return [...seen.values()];
}
