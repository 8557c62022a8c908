/** The auth module's front door: what other modules may use (issue 17; the rest is its own). */

export type { AccountActionDeps } from './account-actions.service';
export { accountActionDepsOf, mailProductUpdatesConfirmation, sendOrFail } from './account-actions.service';
export { emailChangedMail, emailChangeMail, sensitiveActionMail } from './account-mail';
export { consumeActionCode, issueActionCode, verifyActionCode } from './action-codes';
export { revokeUserRefreshTokens } from './auth.store';
export { createAuthGuard } from './auth-guard';
