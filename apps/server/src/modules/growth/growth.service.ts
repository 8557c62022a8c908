import type { GoogleAdsVisitRequest, ReferralRecord } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { referralLinkCreated } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { getUser } from '../users';
import {
  claimReferralLinkCode,
  countReferredUsers,
  findReferrerId,
  findUserReferral,
  insertAdVisit,
  saveUserReferral,
} from './growth.store';

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
  const user = await getUser(db, userId);
  const referral = await findUserReferral(db, userId);
  if (!user?.isNewUser || (referral?.referredByCode ?? null) !== null) return null;
  if (referral?.referralLinkCode === record.value) return null;
  const referrerId = await findReferrerId(db, record.value);
  return referrerId !== undefined && referrerId !== userId ? record.value : null;
}

/** `GET /v1/user/referrals`: how many accounts signed up through the user's referral link. */
export async function countReferrals(db: Db, userId: string): Promise<{ count: number }> {
  const code = (await findUserReferral(db, userId))?.referralLinkCode;
  return { count: code ? await countReferredUsers(db, code) : 0 };
}

/**
 * accounts §7 post-registration-user-setup: keeps where the account came from (pid, xid) and who referred
 * it (a live referral record of someone else's link, accounts §3, §9). Before the account stops being new.
 */
export async function recordSignupReferral(
  db: Db,
  userId: string,
  input: { source: Record<string, string>; referral: ReferralRecord | undefined },
  now: Date,
): Promise<void> {
  const referredByCode = await referralCodeToKeep(db, userId, input.referral, now);
  await saveUserReferral(db, userId, {
    signupSource: input.source,
    ...(referredByCode ? { referredByCode } : {}),
  });
}

/** accounts §3 referral_link_code: the user's link's code, or null until the link is made. */
export async function referralLinkCodeOf(db: Db, userId: string): Promise<string | null> {
  return (await findUserReferral(db, userId))?.referralLinkCode ?? null;
}

/**
 * The referral link's code, made on first ask (accounts §3 referral_link_code); making it completes the
 * checklist's join_affiliate (accounts §4 "affiliate link generated", the `referral_link.created` event).
 */
export async function ensureReferralLinkCode(
  deps: { db: Db; events: EventBus },
  userId: string,
): Promise<string> {
  const existing = await referralLinkCodeOf(deps.db, userId);
  if (existing) return existing;
  const code = newId(10).toLowerCase();
  if (await claimReferralLinkCode(deps.db, userId, code)) {
    await deps.events.publish(referralLinkCreated, { userId });
    return code;
  }
  // Another request made it at the same moment: theirs stands.
  return (await referralLinkCodeOf(deps.db, userId)) ?? code;
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
