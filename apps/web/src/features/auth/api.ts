import {
  applyEmailVerificationRoute,
  checkPasswordResetCodeRoute,
  confirmPasswordResetRoute,
  optOutOfUpdatesRoute,
  postRegistrationUserSetupRoute,
  preSignUpRoute,
  type ReferralRecord,
  removeMfaWithBackupCodeRoute,
  type SessionResponse,
  type SignInResponse,
  sendPasswordResetEmailRoute,
  sendVerificationEmailRoute,
  signInMfaRoute,
  signInRoute,
  signOutRoute,
  signUpRoute,
  verifySignInRequestRoute,
} from '@parla/contracts';
import { apiRequest } from '../../lib/api-client';

/** The calls of the sign-in, sign-up and account-action pages (accounts §7). */
export const authApi = {
  signIn: (body: { email: string; password: string }): Promise<SignInResponse> =>
    apiRequest(signInRoute, { body }),
  signInWithCode: (body: { mfa_token: string; code: string }): Promise<SessionResponse> =>
    apiRequest(signInMfaRoute, { body }),
  signInWithBackupCode: async (mfaToken: string, code: string): Promise<SessionResponse | undefined> =>
    (await apiRequest(removeMfaWithBackupCodeRoute, { params: { code }, body: { mfa_token: mfaToken } }))
      .session,
  preSignUp: (body: { email: string; pid?: string; xid?: string; invite_code?: string }) =>
    apiRequest(preSignUpRoute, { body }),
  signUp: (body: {
    email: string;
    password: string;
    first_name?: string;
    agrees_to_product_updates?: boolean;
  }): Promise<SessionResponse> => apiRequest(signUpRoute, { body }),
  postRegistrationUserSetup: (body: { pid?: string; xid?: string; referral?: ReferralRecord }) =>
    apiRequest(postRegistrationUserSetupRoute, { body }),
  signOut: () => apiRequest(signOutRoute),
  sendPasswordResetEmail: (email: string, continueUrl?: string) =>
    apiRequest(sendPasswordResetEmailRoute, { body: { email, continue_url: continueUrl } }),
  sendVerificationEmail: (email: string, continueUrl?: string) =>
    apiRequest(sendVerificationEmailRoute, { body: { email, continue_url: continueUrl } }),
  checkPasswordResetCode: (actionCode: string) =>
    apiRequest(checkPasswordResetCodeRoute, { body: { actionCode } }),
  confirmPasswordReset: (actionCode: string, newPassword: string) =>
    apiRequest(confirmPasswordResetRoute, { body: { actionCode, newPassword } }),
  applyEmailVerification: (actionCode: string, continueUrl: string | undefined, lang: string) =>
    apiRequest(applyEmailVerificationRoute, { body: { actionCode, continueUrl, lang } }),
  optOutOfUpdates: (key: string) => apiRequest(optOutOfUpdatesRoute, { body: { opt_out_updates_key: key } }),
  verifySignInRequest: (code: string) =>
    apiRequest(verifySignInRequestRoute, { body: { sign_in_request_verification_code: code } }),
};
