import { deleteHistoryItemRoute, type ListHistoryResponse } from '@parla/contracts';
import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `DELETE /v1/history/{id}` (history/voices §7): the item and its audio are gone. */
export function deleteHistoryItem(historyItemId: string): Promise<{ status: 'ok' }> {
  return apiRequest(deleteHistoryItemRoute, { params: { history_item_id: historyItemId } });
}

/**
 * Deletes an item and takes it out of every loaded history page at once (no refetch, so the list keeps
 * its place); the other history lists (the recent generations) are refetched.
 */
export function useDeleteHistoryItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteHistoryItem,
    onSuccess: (_answer, historyItemId) => {
      queryClient.setQueriesData<InfiniteData<ListHistoryResponse>>(
        { queryKey: ['history', 'pages'] },
        (data) =>
          data
            ? {
                ...data,
                pages: data.pages.map((page) => ({
                  ...page,
                  history: page.history.filter((item) => item.history_item_id !== historyItemId),
                })),
              }
            : data,
      );
      // A list whose every loaded item is gone has nothing to continue after: it loads again from the top.
      void queryClient.invalidateQueries({
        queryKey: ['history', 'pages'],
        predicate: (query) => {
          const data = query.state.data as InfiniteData<ListHistoryResponse> | undefined;
          return Boolean(
            data?.pages.every((page) => page.history.length === 0) && data.pages.at(-1)?.has_more,
          );
        },
      });
      void queryClient.invalidateQueries({ queryKey: ['history', 'list'] });
    },
  });
}
