import { getKnowledgeBaseDocumentRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { kbQueryKeys } from './kb-query-keys';

/** `GET /v1/convai/knowledge-base/{id}`: the document with its extracted content. */
export function getDocument(documentId: string, signal?: AbortSignal) {
  return apiRequest(getKnowledgeBaseDocumentRoute, {
    params: { documentation_id: documentId },
    query: {},
    signal,
  });
}

export function documentQueryOptions(documentId: string) {
  return queryOptions({
    queryKey: kbQueryKeys.document(documentId),
    queryFn: ({ signal }) => getDocument(documentId, signal),
  });
}

export function useDocument(documentId: string) {
  return useQuery(documentQueryOptions(documentId));
}
