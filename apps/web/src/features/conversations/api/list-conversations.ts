import { listConversationsRoute } from '@parla/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { type ConversationFilters, conversationsQueryKeys } from './conversations-query-keys';

export type { ConversationFilters };

/** How many conversations one page asks for. */
export const CONVERSATIONS_PAGE_SIZE = 30;

/** `GET /v1/convai/conversations`: one page of the workspace's conversations, newest first. */
export function listConversations(
  filters: ConversationFilters,
  cursor: string | undefined,
  signal?: AbortSignal,
) {
  return apiRequest(listConversationsRoute, {
    query: {
      page_size: CONVERSATIONS_PAGE_SIZE,
      agent_id: filters.agentId || undefined,
      call_start_after_unix: filters.after,
      call_start_before_unix: filters.before,
      cursor,
    },
    signal,
  });
}

export function conversationsQueryOptions(filters: ConversationFilters) {
  return infiniteQueryOptions({
    queryKey: conversationsQueryKeys.list(filters),
    queryFn: ({ pageParam, signal }) => listConversations(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  });
}

/** The pages for the filters; while new filters load, the last list stays up (dimmed). */
export function useConversations(filters: ConversationFilters) {
  return useInfiniteQuery({ ...conversationsQueryOptions(filters), placeholderData: keepPreviousData });
}
