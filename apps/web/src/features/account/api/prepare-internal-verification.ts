import { prepareInternalVerificationRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/prepare-internal-verification` (accounts §4): mails the link that verifies a sensitive action. */
export function prepareInternalVerification(email: string) {
  return apiRequest(prepareInternalVerificationRoute, { body: { email } });
}
