import { type UpdateAgentRequest, updateAgentRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { agentsQueryKeys, invalidateAgents } from './agents-query-keys';

export interface UpdateAgentInput {
  agentId: string;
  /** Only the changed sections: the server deep-merges them into what it keeps. */
  body: z.input<typeof UpdateAgentRequest>;
}

/** `PATCH /v1/convai/agents/{id}`: the agent as it is after the merge. */
export function updateAgent({ agentId, body }: UpdateAgentInput) {
  return apiRequest(updateAgentRoute, { params: { agent_id: agentId }, body });
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAgent,
    onSuccess: (agent) => {
      queryClient.setQueryData(agentsQueryKeys.detail(agent.agent_id), agent);
      void invalidateAgents(queryClient);
    },
  });
}
