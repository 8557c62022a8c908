/** The consent module's front door: what other modules may do (issue 26 item 1; the rest is its own). */

export type { UserConsent } from './consent.present';
export { biometricGuard } from './consent.routes';
export { consentDepsOf, editUserPrivacy, ensureGeoLocation, userConsentOf } from './consent.service';
