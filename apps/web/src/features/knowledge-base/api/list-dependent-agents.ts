import { getKnowledgeBaseDependentAgentsRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { kbQueryKeys } from './kb-query-keys';

/** `GET /v1/convai/knowledge-base/{id}/dependent-agents`: the agents that use the document (the first 100). */
export function listDependentAgents(documentId: string, signal?: AbortSignal) {
  return apiRequest(getKnowledgeBaseDependentAgentsRoute, {
    params: { documentation_id: documentId },
    query: { page_size: 100 },
    signal,
  });
}

export function dependentAgentsQueryOptions(documentId: string) {
  return queryOptions({
    queryKey: [...kbQueryKeys.document(documentId), 'agents'] as const,
    queryFn: ({ signal }) => listDependentAgents(documentId, signal),
  });
}

export function useDependentAgents(documentId: string) {
  return useQuery(dependentAgentsQueryOptions(documentId));
}
