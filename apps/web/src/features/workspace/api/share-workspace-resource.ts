import { type ResourceRole, shareWorkspaceResourceRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';
import type { ShareableResourceType } from './workspace-query-keys';

/** Whom a share names: a member by email, or a group id (`default`: everyone in the workspace). */
export type ShareTarget = { user_email: string } | { group_id: string };

/** `POST /v1/workspace/resources/{resource_id}/share` (history/voices §7 "Workspace"). */
export function shareWorkspaceResource(
  type: ShareableResourceType,
  id: string,
  role: ResourceRole,
  target: ShareTarget,
) {
  return apiRequest(shareWorkspaceResourceRoute, {
    params: { resource_id: id },
    body: { resource_type: type, role, ...target },
  });
}
