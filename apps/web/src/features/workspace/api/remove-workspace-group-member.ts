import { removeWorkspaceGroupMemberRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/workspace/groups/{group_id}/members/remove` (accounts §6, §7). */
export function removeWorkspaceGroupMember(groupId: string, email: string) {
  return apiRequest(removeWorkspaceGroupMemberRoute, { params: { group_id: groupId }, body: { email } });
}
