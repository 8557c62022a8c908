import { listToolsRoute } from '@parla/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { type ApiResponse, apiRequest } from '../../../lib/api-client';
import { collectPageItems } from '../../../lib/page-items';
import { agentsQueryKeys } from './agents-query-keys';

export type ToolsPage = ApiResponse<typeof listToolsRoute>;

/** `GET /v1/convai/tools`: one page of the workspace's tools (webhook and client), matching `search`. */
export function listTools(search: string, cursor: string | undefined, signal?: AbortSignal) {
  return apiRequest(listToolsRoute, {
    query: { page_size: 100, search: search || undefined, cursor, sort_by: 'name', sort_direction: 'asc' },
    signal,
  });
}

export function listToolsQueryOptions(search: string) {
  const term = search.trim();
  return infiniteQueryOptions({
    queryKey: agentsQueryKeys.toolList(term),
    queryFn: ({ pageParam, signal }) => listTools(term, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? (last.next_cursor ?? undefined) : undefined),
  });
}

/** The workspace's tools a page at a time; while a new search loads, the last list stays up. */
export function useTools(search = '') {
  return useInfiniteQuery({ ...listToolsQueryOptions(search), placeholderData: keepPreviousData });
}

/** The tools of every loaded page, each once. */
export function flattenToolPages(pages: readonly ToolsPage[] | undefined) {
  return collectPageItems(
    pages,
    (page) => page.tools,
    (tool) => tool.id,
  );
}
