import { deleteAgentTestRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateTests } from './agent-testing-query-keys';

/** `DELETE /v1/convai/agent-testing/{id}` (its past runs stay). */
export function deleteAgentTest(testId: string) {
  return apiRequest(deleteAgentTestRoute, { params: { test_id: testId } });
}

export function useDeleteAgentTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgentTest,
    onSuccess: () => {
      void invalidateTests(queryClient);
    },
  });
}
