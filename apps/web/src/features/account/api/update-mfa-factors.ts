import { updateMfaFactorsRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/*
 * `POST /v1/user/update-mfa-factors` (accounts §7): one endpoint, three actions on the authenticator app.
 */

/** Starts enrolling an authenticator app: answers its `otpauth_url`. */
export function enrollTotp() {
  return apiRequest(updateMfaFactorsRoute, { body: { action: 'enroll_totp' } });
}

/** Finishes the enrolment with a code the app shows. */
export function verifyTotp(code: string) {
  return apiRequest(updateMfaFactorsRoute, { body: { action: 'verify_totp', code } });
}

/** Turns two-factor off with a code the app shows. */
export function removeTotp(code: string) {
  return apiRequest(updateMfaFactorsRoute, { body: { action: 'remove_totp', code } });
}
