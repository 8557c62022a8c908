import { getShareLinkRoute, type ShareLinkResponse } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/history/{id}/share-link` (history/voices §7): the item's public link and the public name. */
export function getShareLink(historyItemId: string, signal?: AbortSignal): Promise<ShareLinkResponse> {
  return apiRequest(getShareLinkRoute, { params: { history_item_id: historyItemId }, signal });
}

/** Asked again each time the dialog opens (history/voices §2: "fetches the link when it opens"). */
export function shareLinkQueryOptions(historyItemId: string) {
  return queryOptions({
    queryKey: ['history', 'share-link', historyItemId] as const,
    queryFn: ({ signal }) => getShareLink(historyItemId, signal),
    staleTime: 0,
  });
}

export function useShareLink(historyItemId: string) {
  return useQuery(shareLinkQueryOptions(historyItemId));
}
