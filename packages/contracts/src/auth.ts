import { z } from 'zod';
import { defineRoute } from './routes';

/** The sentences of the password rules, exactly as accounts doc §5 words them. */
export const passwordMessages = {
  number: 'Your password must contain a number.',
  letter: 'Your password must contain a letter.',
  special: 'Your password must contain a special character.',
  length: 'Your password must be more than 8 characters long.',
  /** Put before the list when one or more rules fail. */
  prefix: "Your password doesn't meet our security requirements.",
  /** The new password and its repetition differ. */
  mismatch: 'Your passwords do not match',
} as const;

/** accounts §5: the trimmed password must be at least this long. */
export const PASSWORD_MIN_LENGTH = 8;

export type PasswordRule = 'number' | 'letter' | 'special' | 'length';

/**
 * The rules a password breaks, in the spec's order (accounts §5 "Password strength"): at least one
 * digit, one letter and one special character, and a trimmed length of at least 8. Letters and digits
 * of any script count; a special character is anything that is neither, nor white space.
 */
export function brokenPasswordRules(password: string): PasswordRule[] {
  const broken: PasswordRule[] = [];
  if (!/\p{Nd}/u.test(password)) broken.push('number');
  if (!/\p{L}/u.test(password)) broken.push('letter');
  if (!/[^\p{L}\p{N}\s]/u.test(password)) broken.push('special');
  if ([...password.trim()].length < PASSWORD_MIN_LENGTH) broken.push('length');
  return broken;
}

/** The one message for a rejected password: the §5 prefix followed by each broken rule's sentence. */
export function describeBrokenPasswordRules(broken: readonly PasswordRule[]): string {
  return [passwordMessages.prefix, ...broken.map((rule) => passwordMessages[rule])].join(' ');
}

/** A new password that passes the §5 strength check; the error message is the combined one. */
export const NewPassword = z.string().superRefine((password, ctx) => {
  const broken = brokenPasswordRules(password);
  if (broken.length > 0) ctx.addIssue({ code: 'custom', message: describeBrokenPasswordRules(broken) });
});

/** An email address as people type it; stored lower-case. */
export const EmailAddress = z.string().trim().max(254).pipe(z.email('Enter a valid email address.'));

export const SignUpRequest = z.object({
  email: EmailAddress,
  password: NewPassword,
  first_name: z.string().trim().max(100).optional(),
  agrees_to_product_updates: z.boolean().optional(),
  /**
   * Where the verification mail's link goes on after verifying: a page of this site (anything else is
   * dropped), e.g. the invitation the visitor signed up to accept (issue 18).
   */
  continue_url: z.string().max(2048).optional(),
});

export const SignInRequest = z.object({
  email: EmailAddress,
  password: z.string().min(1).max(1024),
});

/**
 * A signed-in session: the access token for `Authorization: Bearer` (5 minutes; accounts §4), while the
 * refresh token travels only in an httpOnly cookie.
 */
export const SessionResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.number().int(),
    user_id: z.string(),
    workspace_id: z.string(),
  })
  .meta({ id: 'SessionResponse' });
export type SessionResponse = z.infer<typeof SessionResponse>;

/** Sign-in of an account with a second factor: no session yet, a short-lived token for the second step. */
export const MfaChallengeResponse = z
  .object({ mfa_required: z.literal(true), mfa_token: z.string(), expires_in: z.number().int() })
  .meta({ id: 'MfaChallengeResponse' });
export type MfaChallengeResponse = z.infer<typeof MfaChallengeResponse>;

export const SignInResponse = z.union([SessionResponse, MfaChallengeResponse]);
export type SignInResponse = z.infer<typeof SignInResponse>;

export function isMfaChallenge(response: SignInResponse): response is MfaChallengeResponse {
  return 'mfa_required' in response;
}

export const SignOutResponse = z.object({ status: z.literal('ok') });

export const signUpRoute = defineRoute({
  method: 'POST',
  path: '/v1/auth/sign-up',
  summary: 'Create an account (and its workspace) and sign in',
  tags: ['auth'],
  body: SignUpRequest,
  response: SessionResponse,
  successStatus: 201,
});

export const signInRoute = defineRoute({
  method: 'POST',
  path: '/v1/auth/sign-in',
  summary: 'Sign in with email and password',
  tags: ['auth'],
  body: SignInRequest,
  response: SignInResponse,
});

export const refreshSessionRoute = defineRoute({
  method: 'POST',
  path: '/v1/auth/refresh',
  summary: 'Exchange the refresh cookie for a new access token (the cookie rotates)',
  tags: ['auth'],
  response: SessionResponse,
});

export const signOutRoute = defineRoute({
  method: 'POST',
  path: '/v1/auth/sign-out',
  summary: 'End this sign-in: revoke its refresh tokens and clear the cookie',
  tags: ['auth'],
  response: SignOutResponse,
});
