import { deleteWorkspaceGroupRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `DELETE /v1/workspace/groups/{group_id}` (accounts §6, §7). */
export function deleteWorkspaceGroup(groupId: string) {
  return apiRequest(deleteWorkspaceGroupRoute, { params: { group_id: groupId } });
}
