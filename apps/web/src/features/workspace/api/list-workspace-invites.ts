import { listWorkspaceInvitesRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { workspaceQueryKeys } from './workspace-query-keys';

/** `GET /v1/workspace/invites` (accounts §7). */
export function listWorkspaceInvites(signal?: AbortSignal) {
  return apiRequest(listWorkspaceInvitesRoute, { signal });
}

/** The current workspace's pending invitations. */
export function useWorkspaceInvites({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    enabled,
    queryKey: workspaceQueryKeys.invites,
    queryFn: ({ signal }) => listWorkspaceInvites(signal).then((answer) => answer.invites),
  });
}
