import { CCPA_OPT_OUT_COOKIE_MAX_AGE_SECONDS } from '@parla/contracts';
import { readCookie, writeCookie } from '../../lib/cookies';

/**
 * The opt-out cookie (accounts §9: 360 days): set once this browser has sent the CCPA opt-out, which makes
 * the opt-out resolved. Not an `xi_website_` cache cookie, so a sign-out leaves it (see clearAppCookies).
 */
export const ccpaOptOutCookie = 'xi_ccpa_opt_out';

/** Whether the browser asks for Global Privacy Control (`navigator.globalPrivacyControl`). */
export function browserSendsGpc(nav: Navigator | undefined = globalThis.navigator): boolean {
  return (nav as (Navigator & { globalPrivacyControl?: boolean }) | undefined)?.globalPrivacyControl === true;
}

/**
 * accounts §4 CCPA opt-out: triggered by the user's stored flag or the browser's Global Privacy Control,
 * for a user in one of the US states of §9 (`applies`), and sent (optOutCCPA: true) only while unresolved.
 */
export function shouldSendCcpaOptOut(input: {
  applies: boolean;
  storedOptOut: boolean;
  gpc: boolean;
  resolved: boolean;
}): boolean {
  return input.applies && (input.storedOptOut || input.gpc) && !input.resolved;
}

/** Whether this browser already sent the opt-out (the cookie is there). */
export function isCcpaOptOutResolved(doc: Document | undefined = globalThis.document): boolean {
  return doc !== undefined && readCookie(ccpaOptOutCookie, doc) !== undefined;
}

/** Marks the opt-out resolved for 360 days. */
export function markCcpaOptOutResolved(doc: Document | undefined = globalThis.document): void {
  if (!doc) return;
  writeCookie(ccpaOptOutCookie, '1', CCPA_OPT_OUT_COOKIE_MAX_AGE_SECONDS, doc);
}
