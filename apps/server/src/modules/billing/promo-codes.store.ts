import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { promoCodes } from './billing.tables';

export type PromoCodeRow = typeof promoCodes.$inferSelect;

export async function findPromoCode(db: Db, code: string): Promise<PromoCodeRow | null> {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.code, code));
  return row ?? null;
}

/** Writes a promo code, or changes the terms of the one of that code. */
export async function upsertPromoCode(
  db: Db,
  input: {
    code: string;
    amountOff: number | null;
    percentOff: number | null;
    durationInMonths: number;
    expiresAt: Date | null;
  },
): Promise<void> {
  const { code, ...terms } = input;
  await db.insert(promoCodes).values(input).onConflictDoUpdate({ target: promoCodes.code, set: terms });
}
