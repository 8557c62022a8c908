import { signOutRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/auth/sign-out` (accounts §7): ends the session and its refresh cookie. */
export function signOut() {
  return apiRequest(signOutRoute);
}
