import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { anyRendering, DUBBING_POLL_MS } from '../dubbing-rules';
import { dubbingQueryKeys } from './dubbing-query-keys';
import { getDubbingResourceRoute } from './types';

/** `GET /v1/dubbing/resource/{id}`: the editor's view of a dub (speakers, segments per language, renders). */
export function getDubbingResource(dubbingId: string, signal?: AbortSignal) {
  return apiRequest(getDubbingResourceRoute, { params: { dubbing_id: dubbingId }, signal });
}

/** The resource once the dub is made (`enabled`), polled while a render is being made. */
export function useDubbingResource(dubbingId: string, enabled: boolean) {
  return useQuery({
    queryKey: dubbingQueryKeys.resource(dubbingId),
    queryFn: ({ signal }) => getDubbingResource(dubbingId, signal),
    enabled,
    refetchInterval: (query) => (anyRendering(query.state.data) ? DUBBING_POLL_MS : false),
  });
}
