import {
  AD_VISIT_PARAMS,
  type AdVisitParam,
  REFERRAL_QUERY_PARAM,
  REFERRAL_RECORD_LIFETIME_MS,
  ReferralCode,
  ReferralRecord,
} from '@parla/contracts';
import { appCookiePrefix } from '../../lib/auth/sign-out';
import { expireCookie, readCookie, readJsonCookie, writeJsonCookie } from '../../lib/cookies';

/**
 * The referral record's cookie (accounts §3 "Referral record" `{value, expiresTimestamp}`, §9 90 days). A
 * cookie with the app's `xi_website_` prefix rather than a localStorage key: §9 speaks of affiliate
 * referral *cookies*, and sign-out's clearing of `xi_website_` cookies then covers it too.
 */
export const referralCookieName = `${appCookiePrefix}referral`;

/**
 * accounts §9 "affiliate referral cookies": the cookies this app sets for an affiliate's link. Parla sets
 * one, the referral record; partner ids (pid, xid) are read from the sign-up address, never stored.
 */
export const affiliateCookieNames: readonly string[] = [referralCookieName];

/** A record for a code seen now: it counts for 90 days (accounts §9, 7,776,000,000 ms). */
export function makeReferralRecord(value: string, now: number = Date.now()): ReferralRecord {
  return { value, expiresTimestamp: now + REFERRAL_RECORD_LIFETIME_MS };
}

/** The referral code of a landing address (`?via=<code>`, as `GET /v1/user/referral-link` builds it). */
export function readReferralCode(search: URLSearchParams): string | null {
  const code = search.get(REFERRAL_QUERY_PARAM)?.trim();
  return code && ReferralCode.safeParse(code).success ? code : null;
}

/** Keeps the record in its cookie until it expires; a later link replaces an earlier one. */
export function saveReferralRecord(record: ReferralRecord, doc: Document = document): void {
  writeJsonCookie(referralCookieName, record, (record.expiresTimestamp - Date.now()) / 1000, doc);
}

/** The stored record while it counts; an expired or unreadable one is removed and answers null. */
export function readReferralRecord(
  now: number = Date.now(),
  doc: Document = document,
): ReferralRecord | null {
  const parsed = readJsonCookie(referralCookieName, doc);
  if (parsed === undefined && readCookie(referralCookieName, doc) === undefined) return null;
  const record = ReferralRecord.safeParse(parsed);
  if (!record.success || record.data.expiresTimestamp <= now) {
    expireCookie(referralCookieName, doc);
    return null;
  }
  return record.data;
}

/** Forgets the record (it was sent at sign-up). */
export function removeReferralRecord(doc: Document = document): void {
  expireCookie(referralCookieName, doc);
}

/** Removes the affiliate cookies present (accounts §9, after a paid-ads visit); answers their names. */
export function removeAffiliateCookies(doc: Document = document): string[] {
  const present = affiliateCookieNames.filter((name) => readCookie(name, doc) !== undefined);
  for (const name of present) expireCookie(name, doc);
  return present;
}

/** accounts §3 "Ad-visit params" of a landing address; null when it is not a paid-ads visit. */
export function readAdVisitParams(search: URLSearchParams): Partial<Record<AdVisitParam, string>> | null {
  const params: Partial<Record<AdVisitParam, string>> = {};
  for (const name of AD_VISIT_PARAMS) {
    const value = search.get(name)?.trim();
    if (value) params[name] = value.slice(0, 500);
  }
  return Object.keys(params).length > 0 ? params : null;
}
