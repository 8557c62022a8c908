import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { anyProcessing, TRANSCRIPT_POLL_MS } from '../stt-rules';
import { transcriptQueryKeys } from './transcript-query-keys';
import { type ListTranscriptsResponse, listTranscriptsRoute } from './types';

/** How many transcripts one page of the list asks for. */
export const TRANSCRIPTS_PAGE_SIZE = 20;

/** `GET /v1/speech-to-text/transcripts`: one page of the workspace's transcripts, newest first. */
export function listTranscripts(
  search: string,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<ListTranscriptsResponse> {
  return apiRequest(listTranscriptsRoute, {
    query: { page_size: TRANSCRIPTS_PAGE_SIZE, cursor, search: search.trim() || undefined },
    signal,
  });
}

export function transcriptsQueryOptions(search: string) {
  return infiniteQueryOptions({
    queryKey: transcriptQueryKeys.list(search.trim()),
    queryFn: ({ pageParam, signal }) => listTranscripts(search, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
    // Polled while any transcript listed is still being made (its progress and then its end).
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => anyProcessing(page.transcripts)) ? TRANSCRIPT_POLL_MS : false,
  });
}

/** The pages of the list; while a new search loads, the last list stays up. */
export function useTranscripts(search: string) {
  return useInfiniteQuery({ ...transcriptsQueryOptions(search), placeholderData: keepPreviousData });
}
