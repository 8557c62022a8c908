import { type SessionResponse, signInMfaRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/auth/sign-in/mfa` (accounts §7): the second sign-in step with an authenticator code. */
export function signInWithCode(body: { mfa_token: string; code: string }): Promise<SessionResponse> {
  return apiRequest(signInMfaRoute, { body });
}
