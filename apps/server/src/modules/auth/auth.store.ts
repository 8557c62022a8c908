import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { authSigningKeys, type RefreshTokenRow, refreshTokens } from './auth.tables';

export async function insertRefreshToken(db: Db, row: typeof refreshTokens.$inferInsert): Promise<void> {
  await db.insert(refreshTokens).values(row);
}

/** The token row with this hash, locked for the rest of the transaction (one rotation at a time). */
export async function lockRefreshTokenByHash(
  db: Db,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .for('update');
  return row;
}

export async function markRefreshTokenRotated(db: Db, id: string, at: Date): Promise<void> {
  await db.update(refreshTokens).set({ rotatedAt: at }).where(eq(refreshTokens.id, id));
}

/** Revokes every live token of a family; returns how many were live. */
export async function revokeRefreshTokenFamily(db: Db, familyId: string, at: Date): Promise<number> {
  const revoked = await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return revoked.length;
}

/** The shared signing secret, made on first use; concurrent first uses agree on one. */
export async function ensureSigningSecret(db: Db, candidate: string): Promise<string> {
  await db.insert(authSigningKeys).values({ id: 'access-token', secret: candidate }).onConflictDoNothing();
  const [row] = await db.select().from(authSigningKeys).where(eq(authSigningKeys.id, 'access-token'));
  if (!row) throw new Error('the access-token signing key could not be stored');
  return row.secret;
}

/** Ends every sign-in of a user (password reset, email change revert, account deletion). */
export async function revokeUserRefreshTokens(db: Db, userId: string, at: Date): Promise<number> {
  const revoked = await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return revoked.length;
}
