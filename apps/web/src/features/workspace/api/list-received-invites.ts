import { listReceivedInvitesRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { workspaceQueryKeys } from './workspace-query-keys';

/** `GET /v1/user/workspace-invites` (accounts §4, §7). */
export function listReceivedInvites(signal?: AbortSignal) {
  return apiRequest(listReceivedInvitesRoute, { signal });
}

/** The pending invitations addressed to the caller's verified email. */
export function useReceivedInvites() {
  return useQuery({
    queryKey: workspaceQueryKeys.receivedInvites,
    queryFn: ({ signal }) => listReceivedInvites(signal).then((answer) => answer.invites),
  });
}
