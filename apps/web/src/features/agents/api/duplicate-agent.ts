import { duplicateAgentRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateAgents } from './agents-query-keys';

export interface DuplicateAgentInput {
  agentId: string;
  name: string;
}

/** `POST /v1/convai/agents/{id}/duplicate`: the copy's id. */
export function duplicateAgent({ agentId, name }: DuplicateAgentInput) {
  return apiRequest(duplicateAgentRoute, { params: { agent_id: agentId }, body: { name } });
}

export function useDuplicateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: duplicateAgent,
    onSuccess: () => {
      void invalidateAgents(queryClient);
    },
  });
}
