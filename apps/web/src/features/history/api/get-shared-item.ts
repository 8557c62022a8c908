import {
  buildPath,
  getSharedItemAudioRoute,
  getSharedItemRoute,
  type SharedItemResponse,
} from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/shared-history/{id}` (public, no sign-in): what a share page shows; 404 once the item is gone. */
export function getSharedItem(shareLinkId: string, signal?: AbortSignal): Promise<SharedItemResponse> {
  return apiRequest(getSharedItemRoute, { params: { share_link_id: shareLinkId }, signal });
}

export function sharedItemQueryOptions(shareLinkId: string) {
  return queryOptions({
    queryKey: ['shared-history', shareLinkId] as const,
    queryFn: ({ signal }) => getSharedItem(shareLinkId, signal),
  });
}

export function useSharedItem(shareLinkId: string) {
  return useQuery(sharedItemQueryOptions(shareLinkId));
}

/** The public audio of a share link: a plain URL for an `<audio>` element, no token needed. */
export function sharedItemAudioUrl(shareLinkId: string): string {
  return buildPath(getSharedItemAudioRoute.path, { share_link_id: shareLinkId });
}
