import { verifySignInRequestRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/sign-in-requests/verify` (accounts §7): grants the support access a mail asked for. */
export function verifySignInRequest(code: string) {
  return apiRequest(verifySignInRequestRoute, { body: { sign_in_request_verification_code: code } });
}
