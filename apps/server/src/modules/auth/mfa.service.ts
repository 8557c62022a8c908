import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MfaChallengeResponse } from '@parla/contracts';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { countHit } from '../../platform/rate-limit/pg-rate-limit-store';
import { getUser } from '../users';
import type { UserRow } from '../users/users.tables';
import { signAccessToken, verifyAccessToken } from './access-token';
import { toMfaChallengeResponse } from './auth.present';
import type { SecondFactorRow } from './auth.tables';
import {
  claimTotpStep,
  clearMfaWithBackupCode,
  deleteSecondFactor,
  deleteSecondFactorEnabledAfter,
  findSecondFactor,
  saveSecondFactor,
} from './mfa.store';
import { base32Encode, matchTotp, newTotpSecret, otpauthUrl } from './totp';

export interface MfaDeps {
  db: Db;
  clock: Clock;
  signingSecret: () => Promise<string>;
}

/** A user's second factor: on when a code from its secret was verified; a secret alone is a set-up waiting. */
export interface SecondFactor {
  /** accounts §3 totp_mfa_factor: null with no secret, else whether it is on. */
  totp: { enabled: boolean } | null;
  /** accounts §3 has_backup_code. */
  hasBackupCode: boolean;
}

/** `GET /v1/user`'s view of a user's second factor (the account module shows it). */
export async function secondFactorOf(db: Db, userId: string): Promise<SecondFactor> {
  const factor = await findSecondFactor(db, userId);
  return {
    totp: factor?.totpSecret ? { enabled: factor.totpEnabledAt !== null } : null,
    hasBackupCode: (factor?.backupCodeHash ?? null) !== null,
  };
}

/** Whether signing in needs a second factor. */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  return (await findSecondFactor(db, userId))?.totpEnabledAt != null;
}

/** Turns off a second factor turned on after `after`: reverting an email change undoes what came with it. */
export async function removeSecondFactorEnabledAfter(db: Db, userId: string, after: Date): Promise<void> {
  await deleteSecondFactorEnabledAfter(db, userId, after);
}

/** MFA tokens are signed with their own key, so an access token is never an MFA token or the reverse. */
const mfaKey = async (deps: MfaDeps) => `${await deps.signingSecret()}:mfa`;

const wrongCode = () =>
  new AppError(
    'invalid_mfa_code',
    'That code is not right. Enter the current code from your authenticator app.',
  );

/** The token a sign-in with a second factor hands out instead of a session (valid 5 minutes). */
export async function issueMfaChallenge(deps: MfaDeps, user: UserRow): Promise<MfaChallengeResponse> {
  const token = signAccessToken(
    { userId: user.id, workspaceId: user.workspaceId ?? '' },
    await mfaKey(deps),
    deps.clock.now(),
  );
  return toMfaChallengeResponse(token);
}

/** The user an MFA token stands for, or a 401 when it is not valid (any more). */
export async function userOfMfaToken(deps: MfaDeps, token: string): Promise<UserRow> {
  const claims = verifyAccessToken(token, await mfaKey(deps), deps.clock.now());
  const user = claims ? await getUser(deps.db, claims.sub) : undefined;
  if (!user || !(await hasSecondFactor(deps.db, user.id))) {
    throw new AppError('unauthorized', 'This sign-in has expired. Please sign in again.');
  }
  return user;
}

/**
 * Accepts a TOTP code once: the step it matched is stored with a condition on the previous one, so a
 * code (or two concurrent uses of it) never counts twice. Every try counts against the account's
 * MFA_ATTEMPTS.
 */
export async function acceptTotpCode(deps: MfaDeps, user: UserRow, code: string): Promise<void> {
  const factor = await findSecondFactor(deps.db, user.id);
  if (!factor?.totpSecret) throw wrongCode();
  await countMfaAttempt(deps, user.id);
  const step = matchTotp(factor.totpSecret, code, deps.clock.now(), factor.totpLastStep);
  if (step === undefined) throw wrongCode();
  if (!(await claimTotpStep(deps.db, user.id, step))) throw wrongCode();
}

/** Codes an account may try in MFA_WINDOW_MS, whatever addresses they come from (no spread-out guessing). */
export const MFA_ATTEMPTS = 10;
const MFA_WINDOW_MS = 15 * 60_000;

async function countMfaAttempt(deps: MfaDeps, userId: string): Promise<void> {
  const { current, ttl } = await countHit(deps.db, `mfa-attempts:${userId}`, MFA_WINDOW_MS);
  if (current > MFA_ATTEMPTS) {
    throw new AppError(
      'rate_limited',
      'Too many codes were tried. Please wait a few minutes and try again.',
      {
        headers: { 'retry-after': String(Math.max(1, Math.ceil(ttl / 1000))) },
      },
    );
  }
}

function hashBackupCode(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
}

/** A backup code like `k3m9-2qxa-7bpd-4wne`: 80 random bits. */
function newBackupCode(): string {
  const raw = base32Encode(randomBytes(10)).toLowerCase();
  return raw.match(/.{4}/g)?.join('-') ?? raw;
}

function matchesBackupCode(factor: SecondFactorRow, code: string): boolean {
  if (!factor.backupCodeHash) return false;
  const given = Buffer.from(hashBackupCode(code));
  const stored = Buffer.from(factor.backupCodeHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** Starts enrolment: a secret, kept but not active until a code from it is verified. */
export async function enrollTotp(
  deps: MfaDeps,
  user: UserRow,
): Promise<{ secret: string; otpauthUrl: string }> {
  const factor = await findSecondFactor(deps.db, user.id);
  if (factor?.totpEnabledAt) {
    throw new AppError(
      'conflict',
      'Two-factor authentication is already on. Remove it first to set it up again.',
    );
  }
  // A set-up already waiting keeps its secret: a dialog opened twice (or a second tab) shows the same QR code.
  const secret = factor?.totpSecret ?? newTotpSecret();
  if (!factor?.totpSecret) {
    await saveSecondFactor(deps.db, user.id, { totpSecret: secret, totpLastStep: null });
  }
  return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
}

/** Finishes enrolment with a code from the app; answers the first backup code. */
export async function confirmTotp(deps: MfaDeps, user: UserRow, code: string): Promise<string> {
  const factor = await findSecondFactor(deps.db, user.id);
  if (factor?.totpEnabledAt) throw new AppError('conflict', 'Two-factor authentication is already on.');
  if (!factor?.totpSecret)
    throw new AppError('conflict', 'Start the set-up first: no authenticator is waiting for a code.');
  await acceptTotpCode(deps, user, code);
  const backupCode = newBackupCode();
  await saveSecondFactor(deps.db, user.id, {
    totpEnabledAt: deps.clock.now(),
    backupCodeHash: hashBackupCode(backupCode),
  });
  return backupCode;
}

/** Turns the second factor off, with a current code from the app. */
export async function removeTotp(deps: MfaDeps, user: UserRow, code: string): Promise<void> {
  if (!(await hasSecondFactor(deps.db, user.id)))
    throw new AppError('conflict', 'Two-factor authentication is not on.');
  await acceptTotpCode(deps, user, code);
  await deleteSecondFactor(deps.db, user.id);
}

/** A new backup code; the previous one stops working. */
export async function createBackupCode(deps: MfaDeps, user: UserRow): Promise<string> {
  if (!(await hasSecondFactor(deps.db, user.id))) {
    throw new AppError('conflict', 'Turn on two-factor authentication before making a backup code.');
  }
  const code = newBackupCode();
  await saveSecondFactor(deps.db, user.id, { backupCodeHash: hashBackupCode(code) });
  return code;
}

/** Removes the second factor with the backup code (used once: it is cleared with the factor). */
export async function removeMfaWithBackupCode(deps: MfaDeps, user: UserRow, code: string): Promise<void> {
  await countMfaAttempt(deps, user.id);
  const factor = await findSecondFactor(deps.db, user.id);
  if (!factor?.totpEnabledAt || !matchesBackupCode(factor, code)) {
    throw new AppError('invalid_mfa_code', 'That backup code is not right.');
  }
  if (!(await clearMfaWithBackupCode(deps.db, user.id, hashBackupCode(code))))
    throw new AppError('invalid_mfa_code', 'That backup code is not right.');
}
