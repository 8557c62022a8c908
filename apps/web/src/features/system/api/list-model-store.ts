import { listModelStoreRoute, type ModelStoreResponse } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/model-store` (public): every model file set of this server, available or why not, with its licence. */
export function listModelStore(signal?: AbortSignal): Promise<ModelStoreResponse> {
  return apiRequest(listModelStoreRoute, { signal });
}

export function listModelStoreQueryOptions() {
  return queryOptions({
    queryKey: ['system', 'model-store'] as const,
    queryFn: ({ signal }) => listModelStore(signal),
    // The server checks its models at start: the answer changes only with a restart.
    staleTime: 5 * 60_000,
  });
}

export function useModelStore() {
  return useQuery(listModelStoreQueryOptions());
}
