import { listKnowledgeBaseChunksRoute } from '@parla/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { kbQueryKeys } from './kb-query-keys';

/** How many chunks one page asks for. */
export const KB_CHUNKS_PAGE_SIZE = 20;

/** `GET /v1/convai/knowledge-base/{id}/chunks`: the passages the agent retrieves from, in order. */
export function listChunks(documentId: string, cursor: string | undefined, signal?: AbortSignal) {
  return apiRequest(listKnowledgeBaseChunksRoute, {
    params: { documentation_id: documentId },
    query: { page_size: KB_CHUNKS_PAGE_SIZE, cursor },
    signal,
  });
}

export function chunksQueryOptions(documentId: string) {
  return infiniteQueryOptions({
    queryKey: kbQueryKeys.chunks(documentId),
    queryFn: ({ pageParam, signal }) => listChunks(documentId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useChunks(documentId: string, enabled: boolean) {
  return useInfiniteQuery({ ...chunksQueryOptions(documentId), enabled });
}
