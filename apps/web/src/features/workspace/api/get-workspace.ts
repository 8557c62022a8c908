import { getWorkspaceRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { workspaceQueryKeys } from './workspace-query-keys';

/** `GET /v1/workspace` (accounts §7): the current workspace. */
export function getWorkspace(signal?: AbortSignal) {
  return apiRequest(getWorkspaceRoute, { signal });
}

export function getWorkspaceQueryOptions() {
  return queryOptions({
    queryKey: workspaceQueryKeys.summary,
    queryFn: ({ signal }) => getWorkspace(signal),
  });
}

/** The current workspace: name, owner, the caller's role, seats and settings. */
export function useWorkspaceSummary() {
  return useQuery(getWorkspaceQueryOptions());
}
