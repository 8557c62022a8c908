import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { singleUseTokens } from './auth.tables';

/** A single-use token's row to write (its hash, never the token). */
export type NewSingleUseToken = typeof singleUseTokens.$inferInsert;

/** Writes a new token; the expired ones are swept on the way. */
export async function insertSingleUseToken(db: Db, row: NewSingleUseToken, now: Date): Promise<void> {
  await db.delete(singleUseTokens).where(lt(singleUseTokens.expiresAt, now));
  await db.insert(singleUseTokens).values(row);
}

/**
 * Marks a token of this type used if it is unused and unexpired, answering its owner (one UPDATE decides:
 * two sockets racing get one winner); undefined otherwise.
 */
export async function markSingleUseTokenUsed(
  db: Db,
  tokenHash: string,
  tokenType: string,
  now: Date,
): Promise<{ userId: string; workspaceId: string; apiKeyId: string | null } | undefined> {
  const [row] = await db
    .update(singleUseTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(singleUseTokens.tokenHash, tokenHash),
        eq(singleUseTokens.tokenType, tokenType),
        isNull(singleUseTokens.usedAt),
        gt(singleUseTokens.expiresAt, now),
      ),
    )
    .returning({
      userId: singleUseTokens.userId,
      workspaceId: singleUseTokens.workspaceId,
      apiKeyId: singleUseTokens.apiKeyId,
    });
  return row;
}
