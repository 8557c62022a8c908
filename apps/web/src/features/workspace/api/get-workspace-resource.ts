import { getWorkspaceResourceRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { type ShareableResourceType, workspaceQueryKeys } from './workspace-query-keys';

/** `GET /v1/workspace/resources/{resource_id}` (history/voices §7 "Workspace"): who a resource is shared with. */
export function getWorkspaceResource(type: ShareableResourceType, id: string, signal?: AbortSignal) {
  return apiRequest(getWorkspaceResourceRoute, {
    params: { resource_id: id },
    query: { resource_type: type },
    signal,
  });
}

/** Who a resource is shared with; fetched while `enabled` (the share dialog is open). */
export function useWorkspaceResource(type: ShareableResourceType, id: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: workspaceQueryKeys.resource(type, id),
    queryFn: ({ signal }) => getWorkspaceResource(type, id, signal),
    enabled,
  });
}
