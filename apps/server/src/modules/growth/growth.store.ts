import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { adVisits, userReferrals } from './growth.tables';

export async function insertAdVisit(db: Db, visit: typeof adVisits.$inferInsert): Promise<void> {
  await db.insert(adVisits).values(visit);
}

/** A user's referrals as stored, or undefined when there are none. */
export async function findUserReferral(db: Db, userId: string) {
  const [row] = await db.select().from(userReferrals).where(eq(userReferrals.userId, userId));
  return row;
}

/** Writes these referral fields of a user (the row is made on the first write). */
export async function saveUserReferral(
  db: Db,
  userId: string,
  fields: { referredByCode?: string; signupSource?: Record<string, string> },
): Promise<void> {
  await db
    .insert(userReferrals)
    .values({ userId, ...fields })
    .onConflictDoUpdate({ target: userReferrals.userId, set: fields });
}

/** Gives the user this referral link code unless they have one; answers whether this call set it. */
export async function claimReferralLinkCode(db: Db, userId: string, code: string): Promise<boolean> {
  const rows = await db
    .insert(userReferrals)
    .values({ userId, referralLinkCode: code })
    .onConflictDoUpdate({
      target: userReferrals.userId,
      set: { referralLinkCode: code },
      where: isNull(userReferrals.referralLinkCode),
    })
    .returning({ userId: userReferrals.userId });
  return rows.length > 0;
}

/** The user whose referral link carries this code, if any. */
export async function findReferrerId(db: Db, code: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: userReferrals.userId })
    .from(userReferrals)
    .where(eq(userReferrals.referralLinkCode, code));
  return row?.userId;
}

/** How many accounts signed up with this referral code. */
export async function countReferredUsers(db: Db, code: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(userReferrals)
    .where(and(eq(userReferrals.referredByCode, code)));
  return row?.count ?? 0;
}
