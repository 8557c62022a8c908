/** The auth module's front door: what other modules may do (issue 26 item 1; the rest is its own). */

export type { AccountActionDeps } from './account-actions.service';
export {
  accountActionDepsOf,
  mailProductUpdatesConfirmation,
  requestSupportAccess,
  sendOrFail,
} from './account-actions.service';
export { emailChangedMail, emailChangeMail, sensitiveActionMail } from './account-mail';
export { consumeActionCode, issueActionCode, verifyActionCode } from './action-codes';
export { createAccountWithPassword } from './auth.service';
export { createAuthGuard } from './auth-guard';
export type { SecondFactor } from './mfa.service';
export { removeSecondFactorEnabledAfter, secondFactorOf } from './mfa.service';
export { revokeUserSessions } from './refresh-tokens.service';
