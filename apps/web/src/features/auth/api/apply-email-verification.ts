import { applyEmailVerificationRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/auth/action/verify-email` (accounts §7): the landing of an email verification link. */
export function applyEmailVerification(actionCode: string, continueUrl: string | undefined, lang: string) {
  return apiRequest(applyEmailVerificationRoute, { body: { actionCode, continueUrl, lang } });
}
