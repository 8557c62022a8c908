import { z } from 'zod';
import { SessionResponse } from './auth';
import { defineRoute } from './routes';

/** A six-digit code from an authenticator app. */
export const TotpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.');

export const signInMfaRoute = defineRoute({
  method: 'POST',
  path: '/v1/auth/sign-in/mfa',
  summary: 'Finish a sign-in with the code from the authenticator app',
  tags: ['auth'],
  body: z.object({ mfa_token: z.string().min(1).max(2048), code: TotpCode }),
  response: SessionResponse,
});

/** accounts §7 update-mfa-factors: enrol a TOTP factor, confirm it with a code, or remove it. */
export const UpdateMfaFactorsRequest = z.discriminatedUnion('action', [
  z.object({ action: z.literal('enroll_totp') }),
  z.object({ action: z.literal('verify_totp'), code: TotpCode }),
  z.object({ action: z.literal('remove_totp'), code: TotpCode }),
]);

export const UpdateMfaFactorsResponse = z.object({
  totp_mfa_factor: z.object({ enabled: z.boolean() }).nullable(),
  /** Only for enroll_totp: the secret and its otpauth:// URL (for the QR code), shown once. */
  totp_secret: z.string().optional(),
  otpauth_url: z.string().optional(),
  /** Only for verify_totp: the backup code, shown once. */
  backup_code: z.string().optional(),
});

export const updateMfaFactorsRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/update-mfa-factors',
  summary: 'Enrol, confirm or remove the authenticator-app second factor',
  tags: ['user'],
  body: UpdateMfaFactorsRequest,
  response: UpdateMfaFactorsResponse,
});

export const createBackupCodeRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/backup-code',
  summary: 'Make a new backup code (the previous one stops working); shown once',
  tags: ['user'],
  response: z.object({ backup_code: z.string() }),
});

/**
 * Removes the second factor with the backup code: signed in, or during a sign-in with its `mfa_token`
 * (then it also finishes the sign-in).
 */
export const removeMfaWithBackupCodeRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/backup-code/:code/remove-mfa',
  summary: 'Remove the second factor with the backup code',
  tags: ['user'],
  params: z.object({ code: z.string().min(1).max(64) }),
  // No body at all (null) when signed in.
  body: z.object({ mfa_token: z.string().max(2048).optional() }).nullish(),
  response: z.object({ status: z.literal('ok'), session: SessionResponse.optional() }),
});
