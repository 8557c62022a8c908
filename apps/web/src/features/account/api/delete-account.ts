import { deleteUserRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * `DELETE /v1/user/delete` (accounts §4, §7): deletes the caller's account; a sensitive action, so the
 * verified code goes along when there is one.
 */
export function deleteAccount(sensitiveActionCode: string | null) {
  return apiRequest(deleteUserRoute, {
    headers: sensitiveActionCode ? { 'xi-sensitive-action-code': sensitiveActionCode } : undefined,
  });
}
