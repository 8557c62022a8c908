import { randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import { sha256Hex } from '../../platform/secrets';
import {
  findLiveActionCode,
  insertActionCode,
  markLiveActionCodeVerified,
  useLiveActionCode,
} from './action-codes.store';
import type { AccountActionCodeRow, AccountActionKind } from './auth.tables';

/** How long each kind of mailed code stays good. */
export const actionCodeTtlMs: Record<AccountActionKind, number> = {
  verify_email: 3 * 24 * 3600_000,
  reset_password: 3600_000,
  email_change: 3600_000,
  email_revert: 7 * 24 * 3600_000,
  sign_in_request: 24 * 3600_000,
  sensitive_action: 15 * 60_000,
  // The opt-out link stays in old mails for good.
  opt_out: 10 * 365 * 24 * 3600_000,
};

/** A code as stored: its SHA-256 (platform/secrets.ts, shared with the workspace invitations' codes). */
export const hashActionCode = sha256Hex;

/** Makes a code (256 random bits, URL-safe) and stores its hash; returns the code, shown only in the mail. */
export async function issueActionCode(
  db: Db,
  input: { userId: string; kind: AccountActionKind; email: string; now: Date },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await insertActionCode(db, {
    id: newId(),
    userId: input.userId,
    kind: input.kind,
    codeHash: hashActionCode(code),
    email: input.email,
    expiresAt: new Date(input.now.getTime() + actionCodeTtlMs[input.kind]),
  });
  return code;
}

/** The live (unused, unexpired) code of this kind, or undefined. */
export async function findActionCode(
  db: Db,
  code: string,
  kind: AccountActionKind,
  now: Date,
): Promise<AccountActionCodeRow | undefined> {
  return findLiveActionCode(db, hashActionCode(code), kind, now);
}

/**
 * Uses a live code once: of two concurrent uses exactly one gets the row. `mustBeVerified` is for
 * sensitive-action codes, which only count once their link was followed.
 */
export async function consumeActionCode(
  db: Db,
  code: string,
  kind: AccountActionKind,
  now: Date,
  options: { userId?: string; mustBeVerified?: boolean } = {},
): Promise<AccountActionCodeRow | undefined> {
  return useLiveActionCode(db, hashActionCode(code), kind, now, options);
}

/** Marks a live sensitive-action code of this user as verified (its mailed link was followed). */
export async function verifyActionCode(
  db: Db,
  code: string,
  kind: AccountActionKind,
  userId: string,
  now: Date,
): Promise<boolean> {
  return markLiveActionCodeVerified(db, hashActionCode(code), kind, userId, now);
}
