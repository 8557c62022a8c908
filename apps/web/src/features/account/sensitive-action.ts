import { isHttpError } from '../../lib/http-error';
import { readStorage, removeStorage, storageKeys } from '../../lib/storage-keys';
import { prepareInternalVerification } from './api/prepare-internal-verification';

/** accounts §8 "Email access verified". */
export const emailAccessVerifiedMessage = 'Email access verified. Please try the action again.';

/** accounts §8 "Email update fails": the settings page's change and the shell's revert link both say it. */
export const emailUpdateFailed = (reason: string) => `Unable to update email, ${reason}`;

export type SensitiveActionResult<T> =
  | { status: 'done'; value: T }
  | { status: 'verificationSent'; email: string };

/**
 * Runs a sensitive action (accounts §4 "Sensitive-action verification") with the verified code kept in
 * local storage. Without one the server refuses; then a link is mailed to the account's address, whose
 * landing verifies a code and keeps it for the retry. The stored code is removed after use, and after a
 * refusal, as the spec says.
 */
export async function runSensitiveAction<T>(
  accountEmail: string,
  action: (code: string | null) => Promise<T>,
): Promise<SensitiveActionResult<T>> {
  const code = readStorage(storageKeys.sensitiveActionCode);
  try {
    const value = await action(code);
    if (code) removeStorage(storageKeys.sensitiveActionCode);
    return { status: 'done', value };
  } catch (error) {
    if (code) removeStorage(storageKeys.sensitiveActionCode);
    if (isHttpError(error) && error.errorType === 'sensitive_action_verification_required') {
      await prepareInternalVerification(accountEmail);
      return { status: 'verificationSent', email: accountEmail };
    }
    throw error;
  }
}

/** The sentence for a mailed verification link. */
export function verificationSentMessage(email: string): string {
  return `To confirm it's you, we sent a link to ${email}. Open it, then try again.`;
}
