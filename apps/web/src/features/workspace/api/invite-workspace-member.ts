import { inviteWorkspaceMemberRoute, type WorkspaceRole } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/workspace/invites/add` (accounts §6, §7): mails an invitation, with the groups to join. */
export function inviteWorkspaceMember(body: { email: string; role: WorkspaceRole; group_ids?: string[] }) {
  return apiRequest(inviteWorkspaceMemberRoute, { body });
}
