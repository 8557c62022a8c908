import { listWorkspaceMembersRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { workspaceQueryKeys } from './workspace-query-keys';

/** `GET /v1/workspace/members` (accounts §7). */
export function listWorkspaceMembers(signal?: AbortSignal) {
  return apiRequest(listWorkspaceMembersRoute, { signal });
}

/** The current workspace's members, locked ones included. */
export function useWorkspaceMembers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: workspaceQueryKeys.members,
    queryFn: ({ signal }) => listWorkspaceMembers(signal),
    enabled,
  });
}
