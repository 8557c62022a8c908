import { z } from 'zod';
import { EmailAddress } from './auth';
import { defineRoute } from './routes';

const Ok = z.object({ status: z.literal('ok') });

/** The query parameter of a referral link (`GET /v1/user/referral-link` answers `<origin>/?via=<code>`). */
export const REFERRAL_QUERY_PARAM = 'via';

/** accounts §9: a referral record lives 90 days (7,776,000,000 ms) from the visit that set it. */
export const REFERRAL_RECORD_LIFETIME_MS = 7_776_000_000;

/** accounts §9: affiliate referral cookies are deleted 2 seconds after a visit from paid ads. */
export const AFFILIATE_COOKIE_REMOVAL_DELAY_MS = 2000;

/** A referral code as the server makes them (lower-case base62), with room for longer codes. */
export const ReferralCode = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a referral code.');

/**
 * accounts §3 "Referral record": the code of the link a visitor came through and when that stops counting
 * (ms since the epoch). Sent at sign-up; an expired record, an unknown code or the user's own is ignored.
 */
export const ReferralRecord = z.object({
  value: ReferralCode,
  expiresTimestamp: z.number().int().nonnegative(),
});
export type ReferralRecord = z.infer<typeof ReferralRecord>;

/** accounts §3 "Ad-visit params": the query parameters that mark a visit from a paid ad. */
export const AD_VISIT_PARAMS = [
  'gclid',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const;
export type AdVisitParam = (typeof AD_VISIT_PARAMS)[number];

const AdParam = z.string().trim().min(1).max(500).nullish();

/** accounts §7 `POST /v1/google-ads-visit`: email, event_type and the ad-visit params (one at least). */
export const GoogleAdsVisitRequest = z
  .object({
    /** The visitor's address when known; a visit may be reported signed out. */
    email: EmailAddress.nullish(),
    /** What happened, in snake_case; the web app sends `visit` when it is opened from an ad. */
    event_type: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, 'event_type is a snake_case word of at most 64 characters.'),
    gclid: AdParam,
    utm_source: AdParam,
    utm_medium: AdParam,
    utm_campaign: AdParam,
    utm_term: AdParam,
    utm_content: AdParam,
  })
  .refine((visit) => AD_VISIT_PARAMS.some((name) => visit[name]), {
    message: 'A paid-ads visit carries gclid or one of the utm_ parameters.',
    path: ['gclid'],
  });
export type GoogleAdsVisitRequest = z.infer<typeof GoogleAdsVisitRequest>;

export const googleAdsVisitRoute = defineRoute({
  method: 'POST',
  path: '/v1/google-ads-visit',
  summary: 'Record a visit from a paid ad (signed in or not)',
  tags: ['growth'],
  body: GoogleAdsVisitRequest,
  response: Ok,
});

/** Parla: how many accounts signed up through the caller's referral link. */
export const getReferralsRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/referrals',
  summary: 'How many accounts signed up through the user’s referral link',
  tags: ['user'],
  response: z.object({ count: z.number().int() }),
});
