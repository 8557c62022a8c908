import { z } from 'zod';
import { EmailAddress, NewPassword } from './auth';
import { defineRoute } from './routes';

/**
 * The account-action landing page (accounts §2): where emailed links land. The web path and the modes;
 * any other mode is an error (accounts §8 "Unknown account-action mode").
 */
export const accountActionPath = '/auth/action';
export const ACCOUNT_ACTION_MODES = [
  'optOutOfUpdates',
  'resetPassword',
  'recoverEmail',
  'verifyEmail',
  'verifySignInRequest',
] as const;
export type AccountActionMode = (typeof ACCOUNT_ACTION_MODES)[number];

/** accounts §4 "Account-action dialog state". */
export type AccountActionDialog =
  | 'none'
  | 'needsVerifyEmail'
  | 'changePassword'
  | 'changePasswordSucceeded'
  | 'changePasswordFailed'
  | 'optOutUpdatesSuccess'
  | 'optOutUpdatesFailed';

/** accounts §5 "Email-action results": how a failed email action is told. */
export type EmailActionError = 'invalidActionCode' | 'tooManyAttempts' | 'unknownError';
export const emailActionMessages = {
  tooManyAttempts: 'Too many attempts, please try again in a few minutes.',
  invalidActionCode: 'This link is invalid or has expired. Please request a new one.',
  unknownError: 'Something went wrong, please try again later.',
} as const;

/** The page after a support-access grant (accounts §4 verifySignInRequest). */
export const supportAccessMessages = {
  title: 'Grant Support Access to Your Account',
  text: 'Do you want to grant our support team temporary access to your account?',
  confirm: 'Grant Access',
  granted: 'Thank you for granting us access to your account!',
} as const;

const Ok = z.object({ status: z.literal('ok') });
/** Where the landing page goes after the action: a path or URL of this site (checked by the server). */
const ContinueUrl = z.string().max(2048).optional();
const ActionCode = z.string().min(1).max(256);

export const sendVerificationEmailRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/send-verification-email',
  summary: 'Mail a link that verifies the address (answers ok whether or not an account has it)',
  tags: ['user'],
  body: z.object({ email: EmailAddress, continue_url: ContinueUrl }),
  response: Ok,
});

export const sendPasswordResetEmailRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/send-password-reset-email',
  summary: 'Mail a password-reset link (answers ok whether or not an account has the address)',
  tags: ['user'],
  body: z.object({ email: EmailAddress, continue_url: ContinueUrl }),
  response: Ok,
});

export const checkPasswordResetCodeRoute = defineRoute({
  method: 'POST',
  path: '/v1/auth/action/check-password-reset-code',
  summary: 'Check a password-reset code; answers the email it was sent to',
  tags: ['auth'],
  body: z.object({ actionCode: ActionCode }),
  response: z.object({ email: z.string() }),
});

export const confirmPasswordResetRoute = defineRoute({
  method: 'POST',
  path: '/v1/auth/action/reset-password',
  summary: 'Set a new password with a password-reset code (signs out every session)',
  tags: ['auth'],
  body: z.object({ actionCode: ActionCode, newPassword: NewPassword }),
  response: Ok,
});

export const applyEmailVerificationRoute = defineRoute({
  method: 'POST',
  path: '/v1/auth/action/verify-email',
  summary: 'Verify an email address with the code from the verification mail',
  tags: ['auth'],
  body: z.object({ actionCode: ActionCode, continueUrl: ContinueUrl, lang: z.string().max(16).optional() }),
  response: z.object({ status: z.literal('ok'), email: z.string() }),
});

export const optOutOfUpdatesRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/opt-out-of-updates',
  summary: 'Stop product-update mail with the key from a mail’s opt-out link',
  tags: ['user'],
  body: z.object({ opt_out_updates_key: ActionCode }),
  response: Ok,
});

export const verifySignInRequestRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/sign-in-requests/verify',
  summary: 'Grant the support team temporary access, with the code from the request mail',
  tags: ['user'],
  body: z.object({ sign_in_request_verification_code: ActionCode }),
  response: Ok,
});
