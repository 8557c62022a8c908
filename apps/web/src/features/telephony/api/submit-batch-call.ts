import { type SubmitBatchCallRequest, submitBatchCallRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateBatches } from './telephony-query-keys';

/** `POST /v1/convai/batch-calling/submit`: the calls are placed by the server from the scheduled time. */
export function submitBatchCall(body: SubmitBatchCallRequest) {
  return apiRequest(submitBatchCallRoute, { body });
}

export function useSubmitBatchCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitBatchCall,
    onSuccess: () => {
      void invalidateBatches(queryClient);
    },
  });
}
