import { REFERRAL_RECORD_LIFETIME_MS } from '@parla/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import {
  affiliateCookieNames,
  makeReferralRecord,
  readAdVisitParams,
  readReferralCode,
  readReferralRecord,
  referralCookieName,
  removeAffiliateCookies,
  saveReferralRecord,
} from './referral-record';

/** Plants a cookie the way a page script would. */
function plantCookie(text: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API, and the app reads cookies set this way.
  document.cookie = text;
}

const DAY = 86_400_000;

afterEach(() => {
  for (const name of [...affiliateCookieNames, 'xi_website_other', 'consent']) {
    plantCookie(`${name}=; max-age=0; path=/`);
  }
});

describe('the referral record (accounts §3, §9)', () => {
  it('lives 90 days, 7,776,000,000 ms, from the visit', () => {
    expect(REFERRAL_RECORD_LIFETIME_MS).toBe(90 * DAY);
    expect(REFERRAL_RECORD_LIFETIME_MS).toBe(7_776_000_000);
    expect(makeReferralRecord('friend01', 1_000)).toEqual({
      value: 'friend01',
      expiresTimestamp: 1_000 + 7_776_000_000,
    });
  });

  it('is kept in an xi_website_ cookie and read back while it counts', () => {
    expect(referralCookieName).toBe('xi_website_referral');
    const record = makeReferralRecord('friend01');
    saveReferralRecord(record);
    expect(document.cookie).toContain('xi_website_referral=');
    expect(readReferralRecord()).toEqual(record);
    expect(readReferralRecord(record.expiresTimestamp - 1)).toEqual(record);
  });

  it('is ignored and removed once expired, or when it cannot be read', () => {
    const record = makeReferralRecord('friend01', Date.now() - 10 * DAY);
    saveReferralRecord(record);
    expect(readReferralRecord(record.expiresTimestamp)).toBeNull();
    expect(document.cookie).not.toContain('xi_website_referral=');
    plantCookie(`${referralCookieName}=not-json; path=/`);
    expect(readReferralRecord()).toBeNull();
    plantCookie(
      `${referralCookieName}=${encodeURIComponent('{"value":"a b","expiresTimestamp":1}')}; path=/`,
    );
    expect(readReferralRecord(0)).toBeNull();
  });

  it('reads the code of a referral link (?via=) and refuses anything else', () => {
    expect(readReferralCode(new URLSearchParams('via=ab12cd34ef'))).toBe('ab12cd34ef');
    expect(readReferralCode(new URLSearchParams('via='))).toBeNull();
    expect(readReferralCode(new URLSearchParams('via=<script>'))).toBeNull();
    expect(readReferralCode(new URLSearchParams('ref=ab12cd34ef'))).toBeNull();
  });
});

describe('paid-ads visits (accounts §3 ad-visit params, §9)', () => {
  it('is a visit with gclid or a utm_ parameter', () => {
    expect(readAdVisitParams(new URLSearchParams('gclid=g1&utm_source=google&x=1'))).toEqual({
      gclid: 'g1',
      utm_source: 'google',
    });
    expect(readAdVisitParams(new URLSearchParams('utm_campaign=spring'))).toEqual({ utm_campaign: 'spring' });
    expect(readAdVisitParams(new URLSearchParams('via=friend01&gclid='))).toBeNull();
  });

  it('removes the affiliate cookies only, keeping every other cookie', () => {
    saveReferralRecord(makeReferralRecord('friend01'));
    plantCookie('xi_website_other=1; path=/');
    plantCookie('consent=denied; path=/');
    expect(removeAffiliateCookies()).toEqual(['xi_website_referral']);
    expect(document.cookie).not.toContain('xi_website_referral');
    expect(document.cookie).toContain('xi_website_other=1');
    expect(document.cookie).toContain('consent=denied');
    expect(removeAffiliateCookies()).toEqual([]);
  });
});
