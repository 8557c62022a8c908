import { AFFILIATE_COOKIE_REMOVAL_DELAY_MS } from '@parla/contracts';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-provider';
import { recordGoogleAdsVisit } from '../api/record-google-ads-visit';
import {
  makeReferralRecord,
  readAdVisitParams,
  readReferralCode,
  removeAffiliateCookies,
  saveReferralRecord,
} from '../referral-record';

/**
 * Reads the landing address in the app shell (accounts §3, §7, §9): a referral link's `?via=<code>` is kept
 * as the referral record for 90 days; a paid-ads visit (`gclid` or a `utm_` parameter) removes the
 * affiliate cookies 2 seconds later, so the ad, not an earlier referral, gets the sign-up, and is reported
 * to `POST /v1/google-ads-visit` once the sign-in state is known (with the address when signed in).
 */
export function AttributionCapture() {
  const { search } = useLocation();
  const { status, user } = useAuth();
  const reported = useRef<string | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(search);
    const code = readReferralCode(params);
    if (code) saveReferralRecord(makeReferralRecord(code));
    // Not cancelled when the visitor moves on within the 2 seconds: the removal must still happen.
    if (readAdVisitParams(params)) {
      window.setTimeout(() => removeAffiliateCookies(), AFFILIATE_COOKIE_REMOVAL_DELAY_MS);
    }
  }, [search]);

  useEffect(() => {
    if (status === 'unknown' || reported.current === search) return;
    const params = readAdVisitParams(new URLSearchParams(search));
    if (!params) return;
    reported.current = search;
    void recordGoogleAdsVisit({
      event_type: 'visit',
      ...params,
      ...(status === 'signedIn' && user?.email ? { email: user.email } : {}),
    });
  }, [status, user, search]);

  return null;
}
