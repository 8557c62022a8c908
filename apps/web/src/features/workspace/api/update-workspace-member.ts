import { updateWorkspaceMemberRoute, type WorkspaceRole } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/workspace/members` (accounts §6, §7): a member's role, or locks and unlocks them. */
export function updateWorkspaceMember(body: { email: string; role?: WorkspaceRole; is_locked?: boolean }) {
  return apiRequest(updateWorkspaceMemberRoute, { body });
}
