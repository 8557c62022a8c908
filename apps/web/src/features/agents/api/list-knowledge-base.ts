import { listKnowledgeBaseRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { agentsQueryKeys } from './agents-query-keys';

/**
 * `GET /v1/convai/knowledge-base`: the documents an agent can be given, matching `search` (the first 100;
 * the editor's list is searched, not paged).
 */
export function listKnowledgeBase(search: string, signal?: AbortSignal) {
  return apiRequest(listKnowledgeBaseRoute, {
    query: { page_size: 100, search: search || undefined, sort_by: 'name', sort_direction: 'asc' },
    signal,
  });
}

export function listKnowledgeBaseQueryOptions(search: string) {
  const term = search.trim();
  return queryOptions({
    queryKey: agentsQueryKeys.knowledgeBase(term),
    queryFn: ({ signal }) => listKnowledgeBase(term, signal),
  });
}

export function useKnowledgeBaseDocuments(search: string) {
  return useQuery(listKnowledgeBaseQueryOptions(search));
}
