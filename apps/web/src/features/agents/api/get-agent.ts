import { getAgentRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { agentsQueryKeys } from './agents-query-keys';

/** `GET /v1/convai/agents/{id}`: the agent with its whole resolved configuration. */
export function getAgent(agentId: string, signal?: AbortSignal) {
  return apiRequest(getAgentRoute, { params: { agent_id: agentId }, signal });
}

export function getAgentQueryOptions(agentId: string) {
  return queryOptions({
    queryKey: agentsQueryKeys.detail(agentId),
    queryFn: ({ signal }) => getAgent(agentId, signal),
  });
}

export function useAgent(agentId: string) {
  return useQuery(getAgentQueryOptions(agentId));
}
