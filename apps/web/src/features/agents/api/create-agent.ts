import { type ConversationalConfigInput, createAgentRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateAgents } from './agents-query-keys';

export interface CreateAgentInput {
  name: string;
  conversation_config: ConversationalConfigInput;
}

/** `POST /v1/convai/agents/create`: the new agent's id; what is not given takes the server's defaults. */
export function createAgent(body: CreateAgentInput) {
  return apiRequest(createAgentRoute, { body });
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgent,
    onSuccess: () => {
      void invalidateAgents(queryClient);
    },
  });
}
