import { declineWorkspaceInviteRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/workspace-invites/decline` (accounts §4, §7): by the mailed code or a listed invitation's id. */
export function declineWorkspaceInvite(answer: { invite_code: string } | { invite_id: string }) {
  return apiRequest(declineWorkspaceInviteRoute, { body: answer });
}
