import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { authSecondFactors, type SecondFactorRow } from './auth.tables';

/** A user's second factor as it is stored, or undefined when they never started one. */
export async function findSecondFactor(db: Db, userId: string): Promise<SecondFactorRow | undefined> {
  const [row] = await db.select().from(authSecondFactors).where(eq(authSecondFactors.userId, userId));
  return row;
}

/** Writes these fields of a user's second factor (the row is made on the first write). */
export async function saveSecondFactor(
  db: Db,
  userId: string,
  fields: Partial<Omit<SecondFactorRow, 'userId'>>,
): Promise<void> {
  await db
    .insert(authSecondFactors)
    .values({ userId, ...fields })
    .onConflictDoUpdate({ target: authSecondFactors.userId, set: fields });
}

/**
 * Stores the TOTP step a code matched, only past the last one stored: answers false when that step (or a
 * later one) was already used, so a code never counts twice.
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const updated = await db
    .update(authSecondFactors)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(authSecondFactors.userId, userId),
        or(isNull(authSecondFactors.totpLastStep), lt(authSecondFactors.totpLastStep, step)),
      ),
    )
    .returning({ userId: authSecondFactors.userId });
  return updated.length > 0;
}

/** Turns the second factor off (its row goes). */
export async function deleteSecondFactor(db: Db, userId: string): Promise<void> {
  await db.delete(authSecondFactors).where(eq(authSecondFactors.userId, userId));
}

/** Turns the second factor off if the backup code's hash is still the stored one; answers whether it did. */
export async function clearMfaWithBackupCode(
  db: Db,
  userId: string,
  backupCodeHash: string,
): Promise<boolean> {
  const cleared = await db
    .delete(authSecondFactors)
    .where(and(eq(authSecondFactors.userId, userId), eq(authSecondFactors.backupCodeHash, backupCodeHash)))
    .returning({ userId: authSecondFactors.userId });
  return cleared.length > 0;
}

/** Turns off a second factor that was turned on after `after` (an email change being reverted). */
export async function deleteSecondFactorEnabledAfter(db: Db, userId: string, after: Date): Promise<void> {
  await db
    .delete(authSecondFactors)
    .where(and(eq(authSecondFactors.userId, userId), gt(authSecondFactors.totpEnabledAt, after)));
}
