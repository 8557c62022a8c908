import type { GoogleAdsVisitRequest, ReferralRecord } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import { countReferredUsers, findReferrerId, getReferralState, insertAdVisit } from './growth.store';

/**
 * The referral code a new account keeps as `referred_by_code` (accounts §3 "Referral record", §9 90 days),
 * or null: the record has expired, the account is no longer new or already has a referrer, the code is
 * nobody's, or it is the account's own (nobody refers themselves).
 */
export async function referralCodeToKeep(
  db: Db,
  userId: string,
  record: ReferralRecord | undefined,
  now: Date,
): Promise<string | null> {
  if (!record || record.expiresTimestamp <= now.getTime()) return null;
  const user = await getReferralState(db, userId);
  if (!user?.isNewUser || user.referredByCode !== null) return null;
  if (user.referralLinkCode === record.value) return null;
  const referrerId = await findReferrerId(db, record.value);
  return referrerId !== undefined && referrerId !== userId ? record.value : null;
}

/** `GET /v1/user/referrals`: how many accounts signed up through the user's referral link. */
export async function countReferrals(db: Db, userId: string): Promise<{ count: number }> {
  const code = (await getReferralState(db, userId))?.referralLinkCode;
  return { count: code ? await countReferredUsers(db, code) : 0 };
}

/** accounts §7 `POST /v1/google-ads-visit`: keeps a paid-ads visit, with the caller when signed in. */
export async function recordAdVisit(
  db: Db,
  visit: GoogleAdsVisitRequest,
  caller: { userId: string } | undefined,
): Promise<void> {
  await insertAdVisit(db, {
    id: newId(),
    userId: caller?.userId ?? null,
    email: visit.email ?? null,
    eventType: visit.event_type,
    gclid: visit.gclid ?? null,
    utmSource: visit.utm_source ?? null,
    utmMedium: visit.utm_medium ?? null,
    utmCampaign: visit.utm_campaign ?? null,
    utmTerm: visit.utm_term ?? null,
    utmContent: visit.utm_content ?? null,
  });
}
