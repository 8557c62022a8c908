import { getDocumentRagIndexesRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { kbQueryKeys } from './kb-query-keys';

/** `GET /v1/convai/knowledge-base/{id}/rag-index`: the document's retrieval indexes and their state. */
export function getRagIndexes(documentId: string, signal?: AbortSignal) {
  return apiRequest(getDocumentRagIndexesRoute, { params: { documentation_id: documentId }, signal });
}

export function ragIndexesQueryOptions(documentId: string) {
  return queryOptions({
    queryKey: kbQueryKeys.ragIndexes(documentId),
    queryFn: ({ signal }) => getRagIndexes(documentId, signal),
  });
}

export function useRagIndexes(documentId: string) {
  return useQuery(ragIndexesQueryOptions(documentId));
}
