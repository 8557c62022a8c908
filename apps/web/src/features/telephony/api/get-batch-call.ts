import { getBatchCallRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { BATCH_REFRESH_MS } from './list-batch-calls';
import { telephonyQueryKeys } from './telephony-query-keys';

/** `GET /v1/convai/batch-calling/{id}`: one batch with each recipient's status, refreshed while under way. */
export function useBatchCall(batchId: string | null) {
  return useQuery({
    queryKey: telephonyQueryKeys.batch(batchId ?? ''),
    enabled: batchId !== null,
    queryFn: ({ signal }) => apiRequest(getBatchCallRoute, { params: { batch_id: batchId ?? '' }, signal }),
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' || query.state.data?.status === 'in_progress'
        ? BATCH_REFRESH_MS
        : false,
  });
}
