import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type AccountActionCodeRow, type AccountActionKind, accountActionCodes } from './auth.tables';

export async function insertActionCode(db: Db, row: typeof accountActionCodes.$inferInsert): Promise<void> {
  await db.insert(accountActionCodes).values(row);
}

/** The conditions of a live code: this hash and kind, unused, unexpired. */
const liveCode = (codeHash: string, kind: AccountActionKind, now: Date) => [
  eq(accountActionCodes.codeHash, codeHash),
  eq(accountActionCodes.kind, kind),
  isNull(accountActionCodes.usedAt),
  gt(accountActionCodes.expiresAt, now),
];

/** The live code with this hash and kind. */
export async function findLiveActionCode(
  db: Db,
  codeHash: string,
  kind: AccountActionKind,
  now: Date,
): Promise<AccountActionCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(accountActionCodes)
    .where(and(...liveCode(codeHash, kind, now)));
  return row;
}

/** Marks a live code used (one statement: of two concurrent uses exactly one gets the row). */
export async function useLiveActionCode(
  db: Db,
  codeHash: string,
  kind: AccountActionKind,
  now: Date,
  options: { userId?: string; mustBeVerified?: boolean },
): Promise<AccountActionCodeRow | undefined> {
  const conditions = liveCode(codeHash, kind, now);
  if (options.userId) conditions.push(eq(accountActionCodes.userId, options.userId));
  if (options.mustBeVerified) conditions.push(isNotNull(accountActionCodes.verifiedAt));
  const [row] = await db
    .update(accountActionCodes)
    .set({ usedAt: now })
    .where(and(...conditions))
    .returning();
  return row;
}

/** Marks a live code of this user verified; answers whether there was one. */
export async function markLiveActionCodeVerified(
  db: Db,
  codeHash: string,
  kind: AccountActionKind,
  userId: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(accountActionCodes)
    .set({ verifiedAt: now })
    .where(and(...liveCode(codeHash, kind, now), eq(accountActionCodes.userId, userId)))
    .returning({ id: accountActionCodes.id });
  return rows.length > 0;
}
