import { deleteAgentRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateAgents } from './agents-query-keys';

/** `DELETE /v1/convai/agents/{id}`. */
export function deleteAgent(agentId: string) {
  return apiRequest(deleteAgentRoute, { params: { agent_id: agentId } });
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSuccess: () => {
      void invalidateAgents(queryClient);
    },
  });
}
