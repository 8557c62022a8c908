import { toSameOriginPath } from '@parla/contracts';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import type { Mailer, MailMessage } from '../../providers/mail/mailer';
import { getUser, getUserByEmail, updateUser } from '../users';
import type { UserRow } from '../users/users.tables';
import {
  accountActionLink,
  passwordResetMail,
  productUpdatesMail,
  signInRequestMail,
  verificationMail,
} from './account-mail';
import { consumeActionCode, findActionCode, issueActionCode } from './action-codes';
import { revokeUserRefreshTokens } from './auth.store';
import { hashPassword } from './password-hash';

export interface AccountActionDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
}

/** The mail-sending parts of the app's deps. */
export function accountActionDepsOf(deps: {
  database: { db: Db };
  clock: Clock;
  providers: { mail: Mailer };
  logger: Logger;
  config: { publicUrl: string };
}): AccountActionDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    mailer: deps.providers.mail,
    logger: deps.logger,
    publicUrl: deps.config.publicUrl,
  };
}

/** How long support may act on an account after the user granted access (verifySignInRequest). */
export const SUPPORT_ACCESS_MS = 72 * 3600_000;

const invalidCode = () =>
  new AppError('invalid_action_code', 'This link is invalid or has expired. Please request a new one.');

/** Sends a mail; a mail server that fails becomes a 503 the client can show. */
export async function sendOrFail(deps: AccountActionDeps, message: MailMessage): Promise<void> {
  try {
    await deps.mailer.send(message);
  } catch (error) {
    deps.logger.error({ err: error, kind: message.kind }, 'mail could not be sent');
    throw new AppError('service_unavailable', 'The email could not be sent. Please try again later.', {
      cause: error,
    });
  }
}

/**
 * Sends a mail without waiting for it. For the calls anyone may make with any address, so neither the
 * time of the answer nor a mail-server failure tells whether the address has an account; a failure is
 * logged.
 */
function sendInBackground(deps: AccountActionDeps, message: MailMessage): void {
  deps.mailer.send(message).catch((error: unknown) => {
    deps.logger.error({ err: error, kind: message.kind }, 'mail could not be sent');
  });
}

function continueUrlOf(deps: AccountActionDeps, raw: string | undefined): string | undefined {
  return toSameOriginPath(raw, deps.publicUrl);
}

/** The opt-out link for product-update mail (a long-lived key, one per mail). */
export async function optOutLink(deps: AccountActionDeps, user: UserRow): Promise<string> {
  const key = await issueActionCode(deps.db, {
    userId: user.id,
    kind: 'opt_out',
    email: user.email,
    now: deps.clock.now(),
  });
  return accountActionLink(deps.publicUrl, 'optOutOfUpdates', key);
}

/** Mails the verification link to an unverified account; for an unknown or verified address nothing is sent. */
export async function sendVerificationEmail(
  deps: AccountActionDeps,
  input: { email: string; continueUrl?: string | undefined },
): Promise<void> {
  const user = await getUserByEmail(deps.db, input.email);
  if (!user || user.emailVerifiedAt) return;
  sendInBackground(deps, await verificationMessage(deps, user, continueUrlOf(deps, input.continueUrl)));
}

/**
 * The verification mail of a new or unverified user; its link goes on to `continueUrl` when that is a
 * page of this site (else to sign-in).
 */
export async function mailVerification(
  deps: AccountActionDeps,
  user: UserRow,
  continueUrl?: string,
): Promise<void> {
  await sendOrFail(deps, await verificationMessage(deps, user, continueUrlOf(deps, continueUrl)));
}

/** Issues a verification code and writes its mail. */
async function verificationMessage(
  deps: AccountActionDeps,
  user: UserRow,
  continueUrl: string | undefined,
): Promise<MailMessage> {
  const code = await issueActionCode(deps.db, {
    userId: user.id,
    kind: 'verify_email',
    email: user.email,
    now: deps.clock.now(),
  });
  const link = accountActionLink(deps.publicUrl, 'verifyEmail', code, {
    continueUrl: continueUrl ?? '/app/sign-in',
    userId: user.id,
  });
  const optOut = user.agreesToProductUpdates ? await optOutLink(deps, user) : undefined;
  return verificationMail({ to: user.email, link, optOutLink: optOut });
}

/** Mails a password-reset link when the address has an account; answers the same either way. */
export async function sendPasswordResetEmail(
  deps: AccountActionDeps,
  input: { email: string; continueUrl?: string | undefined },
): Promise<void> {
  const user = await getUserByEmail(deps.db, input.email);
  if (!user) return;
  const code = await issueActionCode(deps.db, {
    userId: user.id,
    kind: 'reset_password',
    email: user.email,
    now: deps.clock.now(),
  });
  const link = accountActionLink(deps.publicUrl, 'resetPassword', code, {
    continueUrl: continueUrlOf(deps, input.continueUrl) ?? '/app/sign-in',
  });
  sendInBackground(deps, passwordResetMail({ to: user.email, link }));
}

/** accounts §4 resetPassword: the code is checked first; answers the address it was sent to. */
export async function checkPasswordResetCode(deps: AccountActionDeps, code: string): Promise<string> {
  const row = await findActionCode(deps.db, code, 'reset_password', deps.clock.now());
  if (!row) throw invalidCode();
  return row.email;
}

/**
 * Sets the new password with a reset code (used once). Following the mailed link proves the address, so
 * it also counts as verified; every sign-in of the account ends.
 */
export async function confirmPasswordReset(
  deps: AccountActionDeps,
  input: { code: string; newPassword: string },
): Promise<void> {
  const now = deps.clock.now();
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    const row = await consumeActionCode(tx, input.code, 'reset_password', now);
    if (!row) throw invalidCode();
    const user = await getUser(tx, row.userId);
    if (!user || user.email !== row.email) throw invalidCode();
    await updateUser(tx, user.id, { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now });
    await revokeUserRefreshTokens(tx, user.id, now);
  });
}

/** accounts §4 verifyEmail: marks the address verified. */
export async function applyEmailVerification(deps: AccountActionDeps, code: string): Promise<string> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await consumeActionCode(tx, code, 'verify_email', now);
    if (!row) throw invalidCode();
    const user = await getUser(tx, row.userId);
    if (!user || user.email !== row.email) throw invalidCode();
    await updateUser(tx, user.id, { emailVerifiedAt: user.emailVerifiedAt ?? now });
    return user.email;
  });
}

/** accounts §4 optOutOfUpdates: the key of any opt-out link stops product-update mail. */
export async function optOutOfUpdates(deps: AccountActionDeps, key: string): Promise<void> {
  const row = await findActionCode(deps.db, key, 'opt_out', deps.clock.now());
  if (!row) throw invalidCode();
  await updateUser(deps.db, row.userId, { agreesToProductUpdates: false });
}

/** Tells a user who opted in to product updates how to opt out again. */
export async function mailProductUpdatesConfirmation(deps: AccountActionDeps, user: UserRow): Promise<void> {
  await sendOrFail(deps, productUpdatesMail({ to: user.email, optOutLink: await optOutLink(deps, user) }));
}

/** Support asks for access (admin command line): mails the user the verifySignInRequest link. */
export async function requestSupportAccess(deps: AccountActionDeps, email: string): Promise<void> {
  const user = await getUserByEmail(deps.db, email);
  if (!user) throw new AppError('resource_not_found', `No account has the email ${email}.`);
  const code = await issueActionCode(deps.db, {
    userId: user.id,
    kind: 'sign_in_request',
    email: user.email,
    now: deps.clock.now(),
  });
  const link = accountActionLink(deps.publicUrl, 'verifySignInRequest', code);
  await sendOrFail(deps, signInRequestMail({ to: user.email, link }));
}

/** accounts §4 verifySignInRequest: the user grants support temporary access (SUPPORT_ACCESS_MS). */
export async function verifySignInRequest(deps: AccountActionDeps, code: string): Promise<void> {
  const now = deps.clock.now();
  const row = await consumeActionCode(deps.db, code, 'sign_in_request', now);
  if (!row) throw invalidCode();
  await updateUser(deps.db, row.userId, { supportAccessUntil: new Date(now.getTime() + SUPPORT_ACCESS_MS) });
}
