/** accounts §8 "Verification email" (the spec's spelling). */
export const verificationEmailFailed = 'An error occured while sending the verification email.';

/** accounts §8 "Password reset request". */
export const passwordResetRequestFailed = 'An error occurred while requesting the password change.';
