import { listWorkspaceGroupsRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { workspaceQueryKeys } from './workspace-query-keys';

/** `GET /v1/workspace/groups` (accounts §7): a record by group id. */
export function listWorkspaceGroups(signal?: AbortSignal) {
  return apiRequest(listWorkspaceGroupsRoute, { signal });
}

/** The current workspace's groups, sorted by name (the API answers a record by id). */
export function useWorkspaceGroups({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: workspaceQueryKeys.groups,
    queryFn: ({ signal }) =>
      listWorkspaceGroups(signal).then((groups) =>
        Object.values(groups).sort((a, b) => a.name.localeCompare(b.name)),
      ),
    enabled,
  });
}
