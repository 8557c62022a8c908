import { ragIndexOverviewRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { kbQueryKeys } from './kb-query-keys';

/** `GET /v1/convai/knowledge-base/rag-index`: how much the workspace's documents hold, of how much. */
export function getRagOverview(signal?: AbortSignal) {
  return apiRequest(ragIndexOverviewRoute, { signal });
}

export function ragOverviewQueryOptions() {
  return queryOptions({ queryKey: kbQueryKeys.overview, queryFn: ({ signal }) => getRagOverview(signal) });
}

export function useRagOverview() {
  return useQuery(ragOverviewQueryOptions());
}
