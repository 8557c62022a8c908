import { type SessionResponse, signUpRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/auth/sign-up` (accounts §7): the account and its first session. */
export function signUp(body: {
  email: string;
  password: string;
  first_name?: string;
  agrees_to_product_updates?: boolean;
  /** Where the verification mail's link goes on to (a page of this site). */
  continue_url?: string;
}): Promise<SessionResponse> {
  return apiRequest(signUpRoute, { body });
}
