import { confirmPasswordResetRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/auth/action/reset-password` (accounts §7): the new password of a reset link. */
export function confirmPasswordReset(actionCode: string, newPassword: string) {
  return apiRequest(confirmPasswordResetRoute, { body: { actionCode, newPassword } });
}
