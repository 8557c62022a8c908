import { listModelsRoute, type ModelResponse } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/models` (history/voices §7): the speech models, the public model ids among them as aliases. */
export function listModels(signal?: AbortSignal): Promise<ModelResponse[]> {
  return apiRequest(listModelsRoute, { signal });
}

export function listModelsQueryOptions() {
  return queryOptions({
    queryKey: ['models'] as const,
    queryFn: ({ signal }) => listModels(signal),
    // The catalogue changes only with a deploy.
    staleTime: 10 * 60_000,
  });
}

export function useModels() {
  return useQuery(listModelsQueryOptions());
}
