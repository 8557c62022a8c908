import { listAgentsRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { conversationsQueryKeys } from './conversations-query-keys';

/**
 * `GET /v1/convai/agents`: the workspace's agents for the pickers (history's filter, the talk-to page), by
 * name, the first 100. The agents feature owns their pages; this only names them.
 */
export function listAgentsForPicker(signal?: AbortSignal) {
  return apiRequest(listAgentsRoute, {
    query: { page_size: 100, sort_by: 'name', sort_direction: 'asc' },
    signal,
  });
}

export function agentsForPickerQueryOptions() {
  return queryOptions({
    queryKey: conversationsQueryKeys.agents,
    queryFn: ({ signal }) => listAgentsForPicker(signal),
    select: (page) => page.agents.filter((agent) => !agent.archived),
  });
}

export function useAgentsForPicker() {
  return useQuery(agentsForPickerQueryOptions());
}
