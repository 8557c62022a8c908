import { type ListHistoryQuery, type ListHistoryResponse, listHistoryRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

type ListHistoryInput = z.input<typeof ListHistoryQuery>;

/** `GET /v1/history` (history/voices §7): a page of the workspace's generations. */
export function listHistory(query: ListHistoryInput, signal?: AbortSignal): Promise<ListHistoryResponse> {
  return apiRequest(listHistoryRoute, { query, signal });
}

/** Under `['history']`, which the player invalidates once a new item is stored (history/voices §4). */
export function listHistoryQueryOptions(query: ListHistoryInput) {
  return queryOptions({
    queryKey: ['history', 'list', query] as const,
    queryFn: ({ signal }) => listHistory(query, signal),
  });
}

export function useHistoryList(query: ListHistoryInput) {
  return useQuery(listHistoryQueryOptions(query));
}
