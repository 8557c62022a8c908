import { removeWorkspaceMemberRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/workspace/members/remove` (accounts §6, §7). */
export function removeWorkspaceMember(email: string) {
  return apiRequest(removeWorkspaceMemberRoute, { body: { email } });
}
