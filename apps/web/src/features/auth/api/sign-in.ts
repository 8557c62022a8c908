import { type SignInResponse, signInRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/auth/sign-in` (accounts §7): a session, or the second step when two-factor is on. */
export function signIn(body: { email: string; password: string }): Promise<SignInResponse> {
  return apiRequest(signInRoute, { body });
}
