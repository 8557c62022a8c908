import { switchWorkspaceRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/switch-workspace` (accounts §4, §7): makes another of the caller's workspaces the current one. */
export function switchWorkspace(workspaceId: string) {
  return apiRequest(switchWorkspaceRoute, { body: { workspace_id: workspaceId } });
}
