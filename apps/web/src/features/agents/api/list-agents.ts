import { listAgentsRoute } from '@parla/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { type ApiResponse, apiRequest } from '../../../lib/api-client';
import { collectPageItems } from '../../../lib/page-items';
import { agentsQueryKeys } from './agents-query-keys';

/** Agents a page of the list asks for. */
export const AGENT_PAGE_SIZE = 30;

export type AgentsPage = ApiResponse<typeof listAgentsRoute>;

/** `GET /v1/convai/agents`: one page of the workspace's agents, newest first, matching `search`. */
export function listAgents(search: string, cursor: string | undefined, signal?: AbortSignal) {
  return apiRequest(listAgentsRoute, {
    query: {
      page_size: AGENT_PAGE_SIZE,
      search: search || undefined,
      cursor,
      sort_by: 'created_at',
      sort_direction: 'desc',
    },
    signal,
  });
}

export function listAgentsQueryOptions(search: string) {
  const term = search.trim();
  return infiniteQueryOptions({
    queryKey: agentsQueryKeys.list(term),
    queryFn: ({ pageParam, signal }) => listAgents(term, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? (last.next_cursor ?? undefined) : undefined),
  });
}

/** The agent list, continued by the server's cursor; while a new search loads, the last list stays up. */
export function useAgents(search: string) {
  return useInfiniteQuery({ ...listAgentsQueryOptions(search), placeholderData: keepPreviousData });
}

/** The agents of every loaded page, each once. */
export function flattenAgentPages(pages: readonly AgentsPage[] | undefined) {
  return collectPageItems(
    pages,
    (page) => page.agents,
    (agent) => agent.agent_id,
  );
}
