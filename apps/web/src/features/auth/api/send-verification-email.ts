import { sendVerificationEmailRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/send-verification-email` (accounts §7); the link leads on to `continueUrl`. */
export function sendVerificationEmail(email: string, continueUrl?: string) {
  return apiRequest(sendVerificationEmailRoute, { body: { email, continue_url: continueUrl } });
}
