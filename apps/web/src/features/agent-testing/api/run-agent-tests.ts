import { runAgentTestsRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateInvocations } from './agent-testing-query-keys';

/** `POST /v1/convai/agents/{id}/run-tests`: the invocation, its runs pending. */
export function runAgentTests(input: { agentId: string; testIds: string[] }) {
  return apiRequest(runAgentTestsRoute, {
    params: { agent_id: input.agentId },
    body: { tests: input.testIds.map((test_id) => ({ test_id })) },
  });
}

export function useRunAgentTests() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAgentTests,
    onSuccess: () => {
      void invalidateInvocations(queryClient);
    },
  });
}
