import { sendPasswordResetEmailRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/send-password-reset-email` (accounts §7); the link leads on to `continueUrl`. */
export function sendPasswordResetEmail(email: string, continueUrl?: string) {
  return apiRequest(sendPasswordResetEmailRoute, { body: { email, continue_url: continueUrl } });
}
