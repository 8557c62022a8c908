import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { DUBBING_POLL_MS } from '../dubbing-rules';
import { dubbingQueryKeys } from './dubbing-query-keys';
import { getDubbingRoute } from './types';

/** `GET /v1/dubbing/{id}`: a dub's status, progress and languages. */
export function getDub(dubbingId: string, signal?: AbortSignal) {
  return apiRequest(getDubbingRoute, { params: { dubbing_id: dubbingId }, signal });
}

/** The dub's metadata, polled while it is being made. */
export function useDub(dubbingId: string) {
  return useQuery({
    queryKey: dubbingQueryKeys.dub(dubbingId),
    queryFn: ({ signal }) => getDub(dubbingId, signal),
    refetchInterval: (query) => (query.state.data?.status === 'dubbing' ? DUBBING_POLL_MS : false),
  });
}
