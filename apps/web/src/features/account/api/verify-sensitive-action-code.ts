import { verifySensitiveActionCodeRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/verify-sensitive-action-code` (accounts §4): the landing of a sensitive-action link. */
export function verifySensitiveActionCode(code: string) {
  return apiRequest(verifySensitiveActionCodeRoute, { body: { verification_code: code } });
}
