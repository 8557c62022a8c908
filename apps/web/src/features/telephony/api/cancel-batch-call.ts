import { cancelBatchCallRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateBatches } from './telephony-query-keys';

/** `POST /v1/convai/batch-calling/{id}/cancel`: calls not placed yet are not; those under way go on. */
export function cancelBatchCall(batchId: string) {
  return apiRequest(cancelBatchCallRoute, { params: { batch_id: batchId } });
}

export function useCancelBatchCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelBatchCall,
    onSuccess: () => {
      void invalidateBatches(queryClient);
    },
  });
}
