import { listAgentTestsRoute } from '@parla/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { type ApiResponse, apiRequest } from '../../../lib/api-client';
import { collectPageItems } from '../../../lib/page-items';
import { agentTestingQueryKeys } from './agent-testing-query-keys';

export type AgentTestsPage = ApiResponse<typeof listAgentTestsRoute>;

/** `GET /v1/convai/agent-testing`: one page of the workspace's tests, newest first, matching `search`. */
export function listAgentTests(search: string, cursor: string | undefined, signal?: AbortSignal) {
  return apiRequest(listAgentTestsRoute, {
    query: { page_size: 50, search: search || undefined, cursor },
    signal,
  });
}

/** The workspace's tests a page at a time; while a new search loads, the last list stays up. */
export function useAgentTests(search: string) {
  const term = search.trim();
  return useInfiniteQuery({
    ...infiniteQueryOptions({
      queryKey: agentTestingQueryKeys.testList(term),
      queryFn: ({ pageParam, signal }) => listAgentTests(term, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => (last.has_more ? (last.next_cursor ?? undefined) : undefined),
    }),
    placeholderData: keepPreviousData,
  });
}

/** The tests of every loaded page, each once (folders are not shown on this page). */
export function flattenTestPages(pages: readonly AgentTestsPage[] | undefined) {
  return collectPageItems(
    pages,
    (page) => page.tests.filter((entry) => entry.entity_type === 'test'),
    (test) => test.id,
  );
}
