import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import {
  insertRefreshToken,
  lockRefreshTokenByHash,
  markRefreshTokenRotated,
  revokeRefreshTokenFamily,
} from './auth.store';

/** How long a refresh token lives without being used. */
export const REFRESH_TOKEN_TTL_DAYS = 30;

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
  /** A rotated token came back: it was replayed, so its whole family is now revoked. */
  | { outcome: 'reused'; userId: string; revoked: number };

/** The stored form of a refresh token. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Issues a refresh token, starting a new family unless one is given (a rotation). */
export async function issueRefreshToken(
  db: Db,
  input: { userId: string; familyId?: string; now: Date },
): Promise<IssuedRefreshToken> {
  const token = randomBytes(32).toString('base64url');
  const familyId = input.familyId ?? newId();
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
 * Exchanges a refresh token for its successor (issue 3: rotated on use). The row is locked, so of two
 * concurrent uses of one token exactly one rotates it and the other is a reuse, which revokes the family.
 */
export async function rotateRefreshToken(db: Db, token: string, now: Date): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    const row = await lockRefreshTokenByHash(tx, hashRefreshToken(token));
    if (!row || row.revokedAt) return { outcome: 'invalid' };
    if (row.rotatedAt) {
      const revoked = await revokeRefreshTokenFamily(tx, row.familyId, now);
      return { outcome: 'reused', userId: row.userId, revoked };
    }
    if (row.expiresAt.getTime() <= now.getTime()) return { outcome: 'invalid' };
    await markRefreshTokenRotated(tx, row.id, now);
    const next = await issueRefreshToken(tx, { userId: row.userId, familyId: row.familyId, now });
    return { outcome: 'rotated', next };
  });
}

/** Ends one sign-in (sign-out): revokes the family the token belongs to. */
export async function revokeRefreshToken(db: Db, token: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockRefreshTokenByHash(tx, hashRefreshToken(token));
    if (row) await revokeRefreshTokenFamily(tx, row.familyId, now);
  });
}
