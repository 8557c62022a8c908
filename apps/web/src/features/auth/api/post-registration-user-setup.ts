import { postRegistrationUserSetupRoute, type ReferralRecord } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/post-registration-user-setup` (accounts §7): the attribution and referral of a new account. */
export function postRegistrationUserSetup(body: { pid?: string; xid?: string; referral?: ReferralRecord }) {
  return apiRequest(postRegistrationUserSetupRoute, { body });
}
