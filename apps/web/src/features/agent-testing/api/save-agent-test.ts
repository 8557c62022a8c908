import { type AgentTestBody, createAgentTestRoute, updateAgentTestRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { invalidateTests } from './agent-testing-query-keys';

/** `POST /v1/convai/agent-testing/create`, or `PUT …/{id}` when the test exists: its id. */
export async function saveAgentTest(input: {
  testId?: string | undefined;
  body: z.input<typeof AgentTestBody>;
}) {
  if (input.testId)
    return (await apiRequest(updateAgentTestRoute, { params: { test_id: input.testId }, body: input.body }))
      .id;
  return (await apiRequest(createAgentTestRoute, { body: input.body })).id;
}

export function useSaveAgentTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAgentTest,
    onSuccess: () => {
      void invalidateTests(queryClient);
    },
  });
}
