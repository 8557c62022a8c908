import { addWorkspaceGroupMemberRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/workspace/groups/{group_id}/members` (accounts §6, §7). */
export function addWorkspaceGroupMember(groupId: string, email: string) {
  return apiRequest(addWorkspaceGroupMemberRoute, { params: { group_id: groupId }, body: { email } });
}
