import {
  analyticsConsentOf,
  bipaTerms,
  type ConsentStateResponse,
  isInBipaRegion,
  isInCcpaOptOutState,
  type TrainingOptOutResponse,
  termsAgreedToOf,
  type UserResponse,
} from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import type { TrainingOptOutRow } from './consent.store';
import type { UserConsentRow } from './consent.tables';

type Consent = Omit<UserConsentRow, 'userId'>;

/** What `GET /v1/user` shows of a user's consents (accounts §3). */
export type UserConsent = Pick<
  UserResponse,
  'ccpa_opt_out' | 'geo_location' | 'accepted_bipa_terms' | 'terms_agreed_to'
>;

export function toUserConsent(consent: Consent): UserConsent {
  return {
    ccpa_opt_out: consent.ccpaOptOut,
    geo_location: consent.geoLocation ?? null,
    accepted_bipa_terms: consent.acceptedBipaTerms,
    terms_agreed_to: termsAgreedToOf(consent.termsAgreedTo),
  };
}

/** A user's consent and privacy state (accounts §4). */
export function toConsentState(user: Consent): ConsentStateResponse {
  const geo = user.geoLocation ?? null;
  return {
    analytics: analyticsConsentOf(user.analyticsConsent, geo),
    ccpa: { applies: isInCcpaOptOutState(geo), opt_out: user.ccpaOptOut },
    bipa: {
      applies: isInBipaRegion(geo),
      accepted: user.acceptedBipaTerms,
      accepted_at_unix: user.bipaTermsAcceptedAt ? toUnixSeconds(user.bipaTermsAcceptedAt) : null,
      effective_date: bipaTerms.effectiveDate,
    },
    geo_location: geo
      ? { region: geo.region ?? null, country: geo.country ?? null, city: geo.city ?? null }
      : null,
  };
}

/** accounts §3 Workspace.training_opt_out with the caller's right to change it. */
export function toTrainingOptOut(row: TrainingOptOutRow, canChange: boolean): TrainingOptOutResponse {
  return {
    training_opt_out: {
      training_opt_out: row.trainingOptOut,
      timestamp_unix: row.trainingOptOutAt ? toUnixSeconds(row.trainingOptOutAt) : null,
    },
    can_change: canChange,
  };
}
