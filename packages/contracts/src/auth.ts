import { z } from 'zod';

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
