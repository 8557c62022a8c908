import { useAuth } from '../../../lib/auth/auth-provider';
import { useConsent } from '../api/get-consent';
import { useCcpaOptOut } from '../use-ccpa-opt-out';
import { AnalyticsConsentBanner } from './analytics-consent-banner';
import { BipaTermsDialog } from './bipa-terms-dialog';

/**
 * The app shell's consent duties for a signed-in user (accounts §4): the analytics consent banner while
 * undecided, the CCPA opt-out call, and the blocking biometric-terms dialog in the Illinois region. A
 * consent state that cannot be read shows nothing (the server still refuses voice calls on its own).
 */
export function ConsentGate() {
  const { status } = useAuth();
  const signedIn = status === 'signedIn';
  const { data } = useConsent({ enabled: signedIn });
  const consent = signedIn ? data : undefined;
  useCcpaOptOut(consent);
  if (!consent) return null;
  return (
    <>
      {consent.analytics.state === 'undecided' && <AnalyticsConsentBanner />}
      <BipaTermsDialog open={consent.bipa.applies && !consent.bipa.accepted} />
    </>
  );
}
