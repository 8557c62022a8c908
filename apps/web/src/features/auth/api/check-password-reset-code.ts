import { checkPasswordResetCodeRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/auth/action/check-password-reset-code` (accounts §7): whether a reset link is still good. */
export function checkPasswordResetCode(actionCode: string) {
  return apiRequest(checkPasswordResetCodeRoute, { body: { actionCode } });
}
