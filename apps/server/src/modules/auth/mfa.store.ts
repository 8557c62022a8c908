import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { users } from '../users/users.tables';

/**
 * Stores the TOTP step a code matched, only past the last one stored: answers false when that step (or a
 * later one) was already used, so a code never counts twice.
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return updated.length > 0;
}

/** The second factor of a user turned off, as it is stored. */
export const CLEARED_MFA = {
  totpSecret: null,
  totpEnabledAt: null,
  totpLastStep: null,
  backupCodeHash: null,
};

/** Turns the second factor off if the backup code's hash is still the stored one; answers whether it did. */
export async function clearMfaWithBackupCode(
  db: Db,
  userId: string,
  backupCodeHash: string,
): Promise<boolean> {
  const cleared = await db
    .update(users)
    .set(CLEARED_MFA)
    .where(and(eq(users.id, userId), eq(users.backupCodeHash, backupCodeHash)))
    .returning({ id: users.id });
  return cleared.length > 0;
}
