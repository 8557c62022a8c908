import { sendEmailChangeVerificationRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /v1/user/send-email-change-verification` (accounts §4, §7): mails a link to the new address; a
 * sensitive action, so the verified code goes along when there is one.
 */
export function sendEmailChangeVerification(newEmail: string, sensitiveActionCode: string | null) {
  return apiRequest(sendEmailChangeVerificationRoute, {
    body: { new_email: newEmail },
    headers: sensitiveActionCode ? { 'xi-sensitive-action-code': sensitiveActionCode } : undefined,
  });
}
