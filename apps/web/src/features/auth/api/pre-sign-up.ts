import { preSignUpRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/pre-sign-up` (accounts §7): whether the email is free, before the account is made. */
export function preSignUp(body: { email: string; pid?: string; xid?: string; invite_code?: string }) {
  return apiRequest(preSignUpRoute, { body });
}
