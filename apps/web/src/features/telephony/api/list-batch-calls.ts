import { listBatchCallsRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { telephonyQueryKeys } from './telephony-query-keys';

/** How often a page with calls under way asks again (the job places calls every 10 s). */
export const BATCH_REFRESH_MS = 5_000;

/** `GET /v1/convai/batch-calling/workspace`: the newest 100 batches, refreshed while one is under way. */
export function useBatchCalls() {
  return useQuery({
    queryKey: telephonyQueryKeys.batches,
    queryFn: ({ signal }) => apiRequest(listBatchCallsRoute, { query: { limit: 100 }, signal }),
    refetchInterval: (query) =>
      query.state.data?.batch_calls.some((b) => b.status === 'pending' || b.status === 'in_progress')
        ? BATCH_REFRESH_MS
        : false,
  });
}
