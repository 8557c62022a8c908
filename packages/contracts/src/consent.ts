import { z } from 'zod';
import { defineRoute } from './routes';

const Ok = z.object({ status: z.literal('ok') });

/** accounts §3 User.geo_location as Parla stores it: lower-case ISO codes (`us`, `il`), the city as named. */
export interface GeoLocationLike {
  region?: string | null | undefined;
  country?: string | null | undefined;
  city?: string | null | undefined;
}

const same = (a: string | null | undefined, b: string) => a?.trim().toLowerCase() === b;

/** accounts §4 analytics consent states. */
export const ANALYTICS_CONSENT_STATES = ['not_applicable', 'granted', 'denied', 'undecided'] as const;
export type AnalyticsConsentState = (typeof ANALYTICS_CONSENT_STATES)[number];

/** The choice a person makes on the consent banner (stored; none means the region's default). */
export const ANALYTICS_CONSENT_CHOICES = ['granted', 'denied'] as const;
export type AnalyticsConsentChoice = (typeof ANALYTICS_CONSENT_CHOICES)[number];

/**
 * accounts §4 "a listed set of European and nearby regions" where analytics and ads are denied until the
 * person chooses: the EU (with its outermost regions that carry their own codes and Åland), the rest of the
 * EEA, the United Kingdom with the Crown dependencies and Gibraltar, and Switzerland. Everywhere else, and
 * where the location is unknown, the spec's default is to grant.
 */
export const CONSENT_REQUIRED_COUNTRIES = [
  // European Union
  'at',
  'be',
  'bg',
  'hr',
  'cy',
  'cz',
  'dk',
  'ee',
  'fi',
  'fr',
  'de',
  'gr',
  'hu',
  'ie',
  'it',
  'lv',
  'lt',
  'lu',
  'mt',
  'nl',
  'pl',
  'pt',
  'ro',
  'sk',
  'si',
  'es',
  'se',
  // EU outermost regions and Åland, which geolocation databases name by their own codes
  'ax',
  'gf',
  'gp',
  'mf',
  'mq',
  're',
  'yt',
  // the rest of the EEA
  'is',
  'li',
  'no',
  // the United Kingdom, the Crown dependencies and Gibraltar; Switzerland
  'gb',
  'gg',
  'gi',
  'im',
  'je',
  'ch',
] as const;

/** Whether analytics consent must be asked in this location (accounts §4). */
export function requiresAnalyticsConsent(geo: GeoLocationLike | null | undefined): boolean {
  const country = geo?.country?.trim().toLowerCase();
  return country !== undefined && (CONSENT_REQUIRED_COUNTRIES as readonly string[]).includes(country);
}

/** What analytics and ad storage may do: the person's choice, else the region's default (accounts §4). */
export interface AnalyticsConsent {
  state: AnalyticsConsentState;
  analytics_storage: AnalyticsConsentChoice;
  ad_storage: AnalyticsConsentChoice;
}

/**
 * accounts §4: a stored choice is the state; without one, a listed region is `undecided` with analytics and
 * ads denied (the banner asks), and anywhere else consent is `not_applicable` and both are granted.
 */
export function analyticsConsentOf(
  choice: AnalyticsConsentChoice | null | undefined,
  geo: GeoLocationLike | null | undefined,
): AnalyticsConsent {
  if (choice) return { state: choice, analytics_storage: choice, ad_storage: choice };
  if (requiresAnalyticsConsent(geo)) {
    return { state: 'undecided', analytics_storage: 'denied', ad_storage: 'denied' };
  }
  return { state: 'not_applicable', analytics_storage: 'granted', ad_storage: 'granted' };
}

/** accounts §9 "CCPA opt-out states": where an opt-out (stored flag or Global Privacy Control) is honoured. */
export const CCPA_OPT_OUT_STATES = ['ca', 'ct', 'co', 'ut', 'va', 'or', 'mt', 'tx'] as const;

/** Whether the location is one of the US states of accounts §9 with an opt-out of sale and sharing. */
export function isInCcpaOptOutState(geo: GeoLocationLike | null | undefined): boolean {
  if (!same(geo?.country, 'us')) return false;
  const region = geo?.region?.trim().toLowerCase() ?? '';
  return (CCPA_OPT_OUT_STATES as readonly string[]).includes(region);
}

/** accounts §9: the opt-out cookie lives 360 days. */
export const CCPA_OPT_OUT_COOKIE_MAX_AGE_SECONDS = 360 * 24 * 60 * 60;

/** accounts §9 "Cache default lifetime 604800 seconds (7 days)": how long a cache cookie is kept. */
export const CACHE_COOKIE_MAX_AGE_SECONDS = 604_800;

/**
 * accounts §3 "Cached user cookie": who is signed in on this browser, readable without a call by pages that
 * have no session of their own (the sign-in page after the session lapsed). Never a credential.
 */
export const CachedUser = z.object({
  ccpa_opt_out: z.boolean(),
  user_id: z.string().min(1),
  workspace_id: z.string().min(1),
  email: z.string().min(1),
});
export type CachedUser = z.infer<typeof CachedUser>;

/** The `Sec-GPC` request header a browser with Global Privacy Control sends (value `1`). */
export const GPC_HEADER = 'sec-gpc';

/** accounts §4: a user is in the Illinois region if country is us and region is il. */
export function isInBipaRegion(geo: GeoLocationLike | null | undefined): boolean {
  return same(geo?.country, 'us') && same(geo?.region, 'il');
}

/** accounts §4 biometric terms: what they cover and when they took effect. */
export const bipaTerms = {
  effectiveDate: '2024-05-31',
  title: 'Please accept our updated terms',
  text: 'We have updated our Voice Data terms, Privacy Policy and Terms of Service, effective May 31, 2024. Because you are in Illinois, please accept them before continuing.',
  accept: 'Accept and continue',
  /** The server's answer to a voice call before acceptance (`bipa_terms_required`). */
  required:
    'Accept the updated terms (voice data, privacy policy, terms of service, effective May 31, 2024) before using voice features.',
} as const;

/** accounts §3 terms_agreed_to: the named sets of terms a user agrees to. */
export const TERMS_NAMES = [
  'conversational_ai',
  'voice_design',
  'licensing',
  'privacy',
  'content',
  'publishing_payouts',
  'batch_calling',
] as const;
export type TermsName = (typeof TERMS_NAMES)[number];

export const TermsAgreedTo = z.object({
  conversational_ai_unix: z.number().int().nullable(),
  voice_design_unix: z.number().int().nullable(),
  licensing_unix: z.number().int().nullable(),
  privacy_unix: z.number().int().nullable(),
  content_unix: z.number().int().nullable(),
  publishing_payouts_unix: z.number().int().nullable(),
  batch_calling_unix: z.number().int().nullable(),
});
export type TermsAgreedTo = z.infer<typeof TermsAgreedTo>;

/** `terms_agreed_to` of a user who agreed to nothing yet. */
export const NO_TERMS_AGREED: TermsAgreedTo = termsAgreedToOf({});

/** The wire shape of the stored agreements (unix seconds per terms name). */
export function termsAgreedToOf(stored: Partial<Record<string, number>>): TermsAgreedTo {
  const at = (name: TermsName) => {
    const value = stored[name];
    return typeof value === 'number' && Number.isInteger(value) ? value : null;
  };
  return {
    conversational_ai_unix: at('conversational_ai'),
    voice_design_unix: at('voice_design'),
    licensing_unix: at('licensing'),
    privacy_unix: at('privacy'),
    content_unix: at('content'),
    publishing_payouts_unix: at('publishing_payouts'),
    batch_calling_unix: at('batch_calling'),
  };
}

/** accounts §5, §8 data-training opt-out texts. */
export const trainingOptOutMessages = {
  adminsOnly: 'Only workspace admins can change this setting.',
  updated: 'Workspace training opt out setting successfully updated.',
  updateFailed: 'Error when updating workspace training opt out setting',
} as const;

const GeoLocation = z.object({
  region: z.string().nullish(),
  country: z.string().nullish(),
  city: z.string().nullish(),
});

/** The consent and privacy state of the signed-in user (accounts §4), read by the app shell. */
export const ConsentStateResponse = z
  .object({
    analytics: z.object({
      state: z.enum(ANALYTICS_CONSENT_STATES),
      analytics_storage: z.enum(ANALYTICS_CONSENT_CHOICES),
      ad_storage: z.enum(ANALYTICS_CONSENT_CHOICES),
    }),
    ccpa: z.object({
      /** The user is in one of the US states of accounts §9. */
      applies: z.boolean(),
      /** The stored opt-out (users.ccpa_opt_out). */
      opt_out: z.boolean(),
    }),
    bipa: z.object({
      /** The user is in the Illinois region (accounts §4). */
      applies: z.boolean(),
      accepted: z.boolean(),
      accepted_at_unix: z.number().int().nullable(),
      effective_date: z.string(),
    }),
    geo_location: GeoLocation.nullable(),
  })
  .meta({ id: 'ConsentState' });
export type ConsentStateResponse = z.infer<typeof ConsentStateResponse>;

/**
 * `GET /v1/user/consent`: the consent state. A location still unknown is looked up from the request's
 * address first; a `Sec-GPC: 1` header from a user in a CCPA state records the opt-out.
 */
export const getConsentRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/consent',
  summary: 'The analytics consent, CCPA opt-out and biometric-terms state of the user',
  tags: ['user'],
  response: ConsentStateResponse,
});

/**
 * `POST /v1/user/consent`: the banner's choice (`analytics_consent`), and the CCPA opt-out the app sends
 * as `optOutCCPA: true` when the stored flag or the browser's Global Privacy Control asks for it (accounts §4).
 */
export const UpdateConsentRequest = z
  .object({
    analytics_consent: z.enum(ANALYTICS_CONSENT_CHOICES).optional(),
    optOutCCPA: z.literal(true).optional(),
  })
  .strict()
  .refine((body) => body.analytics_consent !== undefined || body.optOutCCPA !== undefined, {
    message: 'Send analytics_consent, optOutCCPA, or both.',
  });

export const updateConsentRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/consent',
  summary: 'Record the analytics consent choice or a CCPA opt-out',
  tags: ['user'],
  body: UpdateConsentRequest,
  response: ConsentStateResponse,
});

/** accounts §7 accept-bipa-terms: the biometric terms of accounts §4. */
export const acceptBipaTermsRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/accept-bipa-terms',
  summary: 'Accept the updated biometric (voice data) terms',
  tags: ['user'],
  response: Ok,
});

/** Records when the user agreed to one named set of terms (accounts §3 terms_agreed_to). */
export const agreeToTermsRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/agree-to-terms',
  summary: 'Agree to a named set of terms (voice design, conversational AI, licensing, …)',
  tags: ['user'],
  body: z.object({ terms: z.enum(TERMS_NAMES) }).strict(),
  response: z.object({ status: z.literal('ok'), terms_agreed_to: TermsAgreedTo }),
});

/** accounts §3 Workspace.training_opt_out, and whether the caller may change it (§6: admins only). */
export const TrainingOptOutResponse = z
  .object({
    training_opt_out: z.object({
      training_opt_out: z.boolean(),
      timestamp_unix: z.number().int().nullable(),
    }),
    can_change: z.boolean(),
  })
  .meta({ id: 'WorkspaceTrainingOptOut' });
export type TrainingOptOutResponse = z.infer<typeof TrainingOptOutResponse>;

export const getTrainingOptOutRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/training-opt-out',
  summary: 'Whether the workspace’s data is kept out of model training, and whether the caller may change it',
  tags: ['workspace'],
  response: TrainingOptOutResponse,
});

/** accounts §7 "update-workspace carries training_opt_out": only admins may call it (§6). */
export const updateWorkspaceRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/update-workspace',
  summary: 'Keep the workspace’s data out of model training, or allow it again (admins)',
  tags: ['workspace'],
  body: z.object({ training_opt_out: z.boolean() }).strict(),
  response: TrainingOptOutResponse,
});
