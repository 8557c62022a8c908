import { listUserWorkspacesRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { workspaceQueryKeys } from './workspace-query-keys';

/** `GET /v1/user/workspaces` (accounts §7). */
export function listUserWorkspaces(signal?: AbortSignal) {
  return apiRequest(listUserWorkspacesRoute, { signal });
}

/** The workspaces the caller belongs to; pass `enabled: false` while nobody is signed in. */
export function useUserWorkspaces({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: workspaceQueryKeys.userWorkspaces,
    queryFn: ({ signal }) => listUserWorkspaces(signal).then((answer) => answer.workspaces),
    enabled,
  });
}
