/** The consent module's front door: what other modules may use (issue 17; the rest is its own). */
export { biometricGuard } from './consent.routes';
export { consentDepsOf, ensureGeoLocation } from './consent.service';
