import { deleteWorkspaceInviteRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `DELETE /v1/workspace/invites` (accounts §6, §7): withdraws a pending invitation. */
export function deleteWorkspaceInvite(email: string) {
  return apiRequest(deleteWorkspaceInviteRoute, { body: { email } });
}
