import type { Db } from '../../platform/db/client';
import { isUniqueViolation } from '../../platform/db/errors';
import { AppError } from '../../platform/errors';
import { disableUserKeysCreatedAfter } from '../api-keys';
import {
  type AccountActionDeps,
  consumeActionCode,
  emailChangedMail,
  emailChangeMail,
  issueActionCode,
  removeSecondFactorEnabledAfter,
  revokeUserSessions,
  sendOrFail,
  sensitiveActionMail,
  verifyActionCode,
} from '../auth';
import { getUser, getUserByEmail, updateUser } from '../users';
import type { UserRow } from '../users/users.tables';

const invalidCode = () =>
  new AppError('invalid_action_code', 'This code is invalid or has expired. Please request a new one.');

/**
 * accounts §7 prepare-internal-verification: mails the account's own address a link carrying a
 * sensitive-action code (`internalCode`); the web app verifies it and keeps it for the next sensitive
 * action. The address in the body must be the account's: a typo must not look like a sent mail.
 */
export async function prepareInternalVerification(
  deps: AccountActionDeps,
  user: UserRow,
  email: string,
): Promise<void> {
  if (email.toLowerCase() !== user.email) {
    throw new AppError('invalid_request', 'This is not the email address of your account.', {
      errors: [
        {
          loc: ['body', 'email'],
          msg: 'This is not the email address of your account.',
          type: 'value_error',
        },
      ],
    });
  }
  const code = await issueActionCode(deps.db, {
    userId: user.id,
    kind: 'sensitive_action',
    email: user.email,
    now: deps.clock.now(),
  });
  const link = new URL('/', `${deps.publicUrl}/`);
  link.searchParams.set('internalCode', code);
  link.searchParams.set('newUser', 'false');
  await sendOrFail(deps, sensitiveActionMail({ to: user.email, link: link.toString() }));
}

/** accounts §7 verify-sensitive-action-code: the link was followed by the signed-in account. */
export async function verifySensitiveActionCode(
  deps: AccountActionDeps,
  user: UserRow,
  code: string,
): Promise<void> {
  if (!(await verifyActionCode(deps.db, code, 'sensitive_action', user.id, deps.clock.now()))) {
    throw invalidCode();
  }
}

/**
 * Spends a verified sensitive-action code on an action; without one the action is refused with
 * `sensitive_action_verification_required`, which tells the client to run the verification first.
 */
export async function requireSensitiveAction(
  deps: AccountActionDeps,
  user: UserRow,
  code: string | undefined,
): Promise<void> {
  const used = code
    ? await consumeActionCode(deps.db, code, 'sensitive_action', deps.clock.now(), {
        userId: user.id,
        mustBeVerified: true,
      })
    : undefined;
  if (!used) {
    throw new AppError(
      'sensitive_action_verification_required',
      'Please confirm it is you: follow the link we email you, then try again.',
    );
  }
}

/** Sets a user's email; an address taken meanwhile (a sign-up in the same moment) is email_taken, not a 500. */
async function setEmail(db: Db, userId: string, email: string, now: Date): Promise<void> {
  try {
    await updateUser(db, userId, { email, emailVerifiedAt: now });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('email_taken', 'An account with this email already exists.', { cause: error });
    }
    throw error;
  }
}

async function assertEmailFree(deps: AccountActionDeps, email: string, userId: string): Promise<void> {
  const owner = await getUserByEmail(deps.db, email);
  if (owner && owner.id !== userId) {
    throw new AppError('email_taken', 'An account with this email already exists.');
  }
}

/** Mails a code to the new address; the change happens when it comes back (updateEmail). */
export async function sendEmailChangeVerification(
  deps: AccountActionDeps,
  user: UserRow,
  input: { newEmail: string; sensitiveActionCode: string | undefined },
): Promise<void> {
  const newEmail = input.newEmail.toLowerCase();
  if (newEmail === user.email) {
    throw new AppError('conflict', 'This is already the email address of your account.');
  }
  // The code first: only someone who proved access to the mailbox learns whether an address is taken.
  await requireSensitiveAction(deps, user, input.sensitiveActionCode);
  await assertEmailFree(deps, newEmail, user.id);
  const code = await issueActionCode(deps.db, {
    userId: user.id,
    kind: 'email_change',
    email: newEmail,
    now: deps.clock.now(),
  });
  const link = new URL('/app/settings', `${deps.publicUrl}/`);
  link.searchParams.set('email_change_code', code);
  await sendOrFail(deps, emailChangeMail({ to: newEmail, code, link: link.toString() }));
}

/**
 * accounts §7 `PUT /v1/user/email`. With the code mailed to the new address (signed in): the change,
 * and a mail to the old address with a link to revert it. With `is_reverting` and the code of that link
 * (no sign-in needed, accounts §2 isReverting): the old address comes back and every sign-in ends.
 */
export async function updateEmail(
  deps: AccountActionDeps,
  input: { code: string; isReverting: boolean; userId: string | undefined },
): Promise<string> {
  const now = deps.clock.now();
  if (input.isReverting) {
    return deps.db.transaction(async (tx) => {
      const row = await consumeActionCode(tx, input.code, 'email_revert', now);
      if (!row) throw invalidCode();
      await assertEmailFree({ ...deps, db: tx }, row.email, row.userId);
      await setEmail(tx, row.userId, row.email, now);
      await revokeUserSessions(tx, row.userId, now);
      // Whoever changed the email may have left a way back in since: keys made and a second factor
      // turned on after the change go too.
      await disableUserKeysCreatedAfter(tx, row.userId, row.createdAt, now);
      await removeSecondFactorEnabledAfter(tx, row.userId, row.createdAt);
      return row.email;
    });
  }
  if (!input.userId) throw new AppError('unauthorized', 'Sign in to change your email.');
  const userId = input.userId;
  const changed = await deps.db.transaction(async (tx) => {
    const row = await consumeActionCode(tx, input.code, 'email_change', now, { userId });
    if (!row) throw invalidCode();
    const user = await getUser(tx, userId);
    if (!user) throw invalidCode();
    await assertEmailFree({ ...deps, db: tx }, row.email, userId);
    await setEmail(tx, userId, row.email, now);
    const revertCode = await issueActionCode(tx, { userId, kind: 'email_revert', email: user.email, now });
    return { oldEmail: user.email, newEmail: row.email, revertCode };
  });
  const revertLink = new URL('/', `${deps.publicUrl}/`);
  revertLink.searchParams.set('internalCode', changed.revertCode);
  revertLink.searchParams.set('isReverting', 'true');
  try {
    await deps.mailer.send(
      emailChangedMail({
        to: changed.oldEmail,
        newEmail: changed.newEmail,
        revertLink: revertLink.toString(),
      }),
    );
  } catch (error) {
    // The change is made; the notice to the old address is best effort and logged.
    deps.logger.error({ err: error }, 'the email-changed notice could not be sent');
  }
  return changed.newEmail;
}
