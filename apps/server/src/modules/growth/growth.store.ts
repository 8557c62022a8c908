import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { users } from '../users/users.tables';
import { adVisits } from './growth.tables';

export async function insertAdVisit(db: Db, visit: typeof adVisits.$inferInsert): Promise<void> {
  await db.insert(adVisits).values(visit);
}

/** What a referral at sign-up is checked against: the new account's own state. */
export async function getReferralState(
  db: Db,
  userId: string,
): Promise<
  { isNewUser: boolean; referredByCode: string | null; referralLinkCode: string | null } | undefined
> {
  const [row] = await db
    .select({
      isNewUser: users.isNewUser,
      referredByCode: users.referredByCode,
      referralLinkCode: users.referralLinkCode,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** The user whose referral link carries this code, if any. */
export async function findReferrerId(db: Db, code: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.referralLinkCode, code));
  return row?.id;
}

/** How many accounts signed up with this referral code. */
export async function countReferredUsers(db: Db, code: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.referredByCode, code));
  return row?.count ?? 0;
}
