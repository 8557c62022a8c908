import { type KbDocumentType, listKnowledgeBaseRoute } from '@parla/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { kbQueryKeys } from './kb-query-keys';

/** How many documents one page of the list asks for. */
export const KB_PAGE_SIZE = 30;

export interface KbListFilters {
  /** Words the document's name holds; the server searches. */
  search: string;
  /** One type, or all of them. */
  type: KbDocumentType | null;
}

/** `GET /v1/convai/knowledge-base`: one page of the documents, newest first. */
export function listDocuments(filters: KbListFilters, cursor: string | undefined, signal?: AbortSignal) {
  return apiRequest(listKnowledgeBaseRoute, {
    query: {
      page_size: KB_PAGE_SIZE,
      search: filters.search.trim() || undefined,
      types: filters.type ? [filters.type] : undefined,
      cursor,
    },
    signal,
  });
}

export function documentsQueryOptions(filters: KbListFilters) {
  return infiniteQueryOptions({
    queryKey: kbQueryKeys.list(filters.search.trim(), filters.type),
    queryFn: ({ pageParam, signal }) => listDocuments(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  });
}

/** The pages of the list; while new filters load, the last list stays up (dimmed). */
export function useDocuments(filters: KbListFilters) {
  return useInfiniteQuery({ ...documentsQueryOptions(filters), placeholderData: keepPreviousData });
}
