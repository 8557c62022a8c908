import { acceptWorkspaceInviteRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/workspace-invites/accept` (accounts §4, §7): by the mailed code or a listed invitation's id. */
export function acceptWorkspaceInvite(answer: { invite_code: string } | { invite_id: string }) {
  return apiRequest(acceptWorkspaceInviteRoute, { body: answer });
}
