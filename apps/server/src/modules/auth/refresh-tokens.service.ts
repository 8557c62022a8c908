import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import {
  insertRefreshToken,
  lockRefreshTokenByHash,
  markRefreshTokenRotated,
  revokeRefreshTokenFamily,
  revokeUserRefreshTokens,
} from './auth.store';

/** How long a refresh token lives without being used. */
export const REFRESH_TOKEN_TTL_DAYS = 30;

/**
 * How long after its rotation a token presented again still gets its successor instead of revoking the
 * family: tabs that refresh with the same cookie at the same moment, or a retry of a refresh whose answer
 * was lost, arrive within seconds. Past it, a rotated token is a replay.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 20;

/** How many rotations within the grace window a repeated token is followed through to the live one. */
const MAX_SUCCESSOR_STEPS = 5;

export interface IssuedRefreshToken {
  /** The secret for the cookie; only its hash is stored. */
  token: string;
  userId: string;
  familyId: string;
  expiresAt: Date;
}

export type RotationResult =
  | { outcome: 'rotated'; next: IssuedRefreshToken }
  /** Unknown, expired or revoked: the client must sign in again. */
  | { outcome: 'invalid' }
  /** A rotated token came back after the grace window: a replay, so its whole family is now revoked. */
  | { outcome: 'reused'; userId: string; revoked: number };

/** The stored form of a refresh token. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * The token that replaces `token` when it is rotated: an HMAC of it under a key derived from the
 * access-token secret. Only hashes are stored, so a repeated refresh could not hand out the successor
 * again if it were random; derived, the same presented token always rotates to the same successor, and
 * without the secret nobody can compute it.
 */
export function successorOf(token: string, secret: string): string {
  return createHmac('sha256', `${secret}:refresh-successor`).update(token).digest('base64url');
}

/**
 * Issues a refresh token: a random one starting a new family, or, for a rotation, the given successor in
 * the given family.
 */
export async function issueRefreshToken(
  db: Db,
  input: { userId: string; now: Date; rotation?: { familyId: string; token: string } },
): Promise<IssuedRefreshToken> {
  const token = input.rotation?.token ?? randomBytes(32).toString('base64url');
  const familyId = input.rotation?.familyId ?? newId();
  const expiresAt = new Date(input.now.getTime() + REFRESH_TOKEN_TTL_DAYS * 86_400_000);
  await insertRefreshToken(db, {
    id: newId(),
    userId: input.userId,
    familyId,
    tokenHash: hashRefreshToken(token),
    expiresAt,
  });
  return { token, userId: input.userId, familyId, expiresAt };
}

/**
 * Exchanges a refresh token for its successor (issue 3: rotated on use). The row is locked, so concurrent
 * uses of one token queue up: the first rotates it; the others, and any use within
 * REFRESH_REUSE_GRACE_SECONDS of the rotation, get the same successor (or the live token it has since
 * rotated to). A rotated token presented later is a replay: the whole family is revoked. `secret` is the
 * access-token secret the successor is derived from.
 */
export async function rotateRefreshToken(
  db: Db,
  token: string,
  now: Date,
  secret: string,
): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    const row = await lockRefreshTokenByHash(tx, hashRefreshToken(token));
    if (!row || row.revokedAt) return { outcome: 'invalid' };
    if (row.rotatedAt) {
      const graceEnds = row.rotatedAt.getTime() + REFRESH_REUSE_GRACE_SECONDS * 1000;
      const live = now.getTime() <= graceEnds ? await liveSuccessor(tx, token, secret) : undefined;
      if (live) return { outcome: 'rotated', next: live };
      const revoked = await revokeRefreshTokenFamily(tx, row.familyId, now);
      return { outcome: 'reused', userId: row.userId, revoked };
    }
    if (row.expiresAt.getTime() <= now.getTime()) return { outcome: 'invalid' };
    await markRefreshTokenRotated(tx, row.id, now);
    const next = await issueRefreshToken(tx, {
      userId: row.userId,
      now,
      rotation: { familyId: row.familyId, token: successorOf(token, secret) },
    });
    return { outcome: 'rotated', next };
  });
}

/**
 * The live token a rotated one leads to: its successor, or, when that was rotated too (a tab refreshed
 * twice while another's request waited), the successor's successor. Undefined when the chain ends in a
 * revoked or missing token (the secret changed since), which the caller treats as a replay.
 */
async function liveSuccessor(tx: Db, token: string, secret: string): Promise<IssuedRefreshToken | undefined> {
  let current = token;
  for (let step = 0; step < MAX_SUCCESSOR_STEPS; step += 1) {
    current = successorOf(current, secret);
    const row = await lockRefreshTokenByHash(tx, hashRefreshToken(current));
    if (!row || row.revokedAt) return undefined;
    if (!row.rotatedAt) {
      return { token: current, userId: row.userId, familyId: row.familyId, expiresAt: row.expiresAt };
    }
  }
  return undefined;
}

/** Ends one sign-in (sign-out): revokes the family the token belongs to. */
export async function revokeRefreshToken(db: Db, token: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockRefreshTokenByHash(tx, hashRefreshToken(token));
    if (row) await revokeRefreshTokenFamily(tx, row.familyId, now);
  });
}

/** Ends every sign-in of a user (their refresh tokens stop working): an email change, a password reset. */
export function revokeUserSessions(db: Db, userId: string, at: Date): Promise<number> {
  return revokeUserRefreshTokens(db, userId, at);
}
