import { listAgentsRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { telephonyQueryKeys } from './telephony-query-keys';

/** `GET /v1/convai/agents`: the newest 100 agents, to choose which one answers a number or a batch. */
export function useAgentChoices() {
  return useQuery({
    queryKey: telephonyQueryKeys.agentChoices,
    queryFn: async ({ signal }) => {
      const page = await apiRequest(listAgentsRoute, {
        query: { page_size: 100, sort_by: 'created_at', sort_direction: 'desc' },
        signal,
      });
      return page.agents.map((agent) => ({ id: agent.agent_id, name: agent.name }));
    },
  });
}
