import { z } from 'zod';
import { EmailAddress } from './auth';
import { Invoice, PendingChange } from './billing';
import { TermsAgreedTo } from './consent';
import { ReferralRecord } from './growth';
import { SUBSCRIPTION_TIERS } from './plans';
import { defineRoute } from './routes';

const Ok = z.object({ status: z.literal('ok') });

/** `GET /v1/user/subscription` and `User.subscription`: the public API's SubscriptionResponse. */
export const SubscriptionResponse = z
  .object({
    tier: z.enum(SUBSCRIPTION_TIERS),
    character_count: z.number().int(),
    /** -1 means unlimited (accounts §9). */
    character_limit: z.number().int(),
    max_character_limit_extension: z.number().int().nullish(),
    max_credit_limit_extension: z.union([z.number().int(), z.literal('unlimited')]),
    can_extend_character_limit: z.boolean(),
    allowed_to_extend_character_limit: z.boolean(),
    next_character_count_reset_unix: z.number().int().nullish(),
    voice_slots_used: z.number().int(),
    professional_voice_slots_used: z.number().int(),
    professional_voice_slots_used_in_workspace: z.number().int(),
    voice_limit: z.number().int(),
    max_voice_add_edits: z.number().int(),
    voice_add_edit_counter: z.number().int(),
    professional_voice_limit: z.number().int(),
    can_extend_voice_limit: z.boolean(),
    can_use_instant_voice_cloning: z.boolean(),
    can_use_professional_voice_cloning: z.boolean(),
    currency: z.enum(['usd', 'eur']),
    current_overage: z.object({ amount: z.string(), currency: z.enum(['usd', 'eur']) }),
    status: z.enum(['trialing', 'active', 'incomplete', 'past_due', 'free', 'free_disabled']),
    billing_period: z.enum(['monthly_period', 'annual_period']).nullish(),
    character_refresh_period: z.enum(['monthly_period', 'annual_period']).nullish(),
  })
  .meta({ id: 'SubscriptionResponse' });
export type SubscriptionResponse = z.infer<typeof SubscriptionResponse>;

/**
 * `GET /v1/user/subscription`: the subscription with its invoices (the public API's Subscription; the
 * billing issue fills the invoices and the pending change).
 */
export const ExtendedSubscriptionResponse = SubscriptionResponse.extend({
  next_invoice: Invoice.nullable(),
  open_invoices: z.array(Invoice),
  has_open_invoices: z.boolean(),
  pending_change: PendingChange.nullable(),
}).meta({ id: 'ExtendedSubscriptionResponse' });
export type ExtendedSubscriptionResponse = z.infer<typeof ExtendedSubscriptionResponse>;

const GeoLocation = z.object({
  region: z.string().max(100).nullish(),
  country: z.string().max(100).nullish(),
  city: z.string().max(200).nullish(),
});

/**
 * `GET /v1/user`: the public API's User (user_id, workspace_id, subscription, is_new_user, created_at,
 * seat_type, …) plus the fields of accounts §3 the web app reads.
 */
export const UserResponse = z
  .object({
    user_id: z.string(),
    workspace_id: z.string(),
    subscription: SubscriptionResponse,
    is_new_user: z.boolean(),
    can_use_delayed_payment_methods: z.boolean(),
    is_onboarding_completed: z.boolean(),
    is_onboarding_checklist_completed: z.boolean(),
    first_name: z.string().nullish(),
    is_api_key_hashed: z.boolean(),
    xi_api_key_preview: z.string().nullish(),
    referral_link_code: z.string().nullish(),
    created_at: z.number().int(),
    created_at_unix: z.number().int(),
    seat_type: z.enum(['workspace_admin', 'workspace_member', 'workspace_lite_member']),
    email: z.string(),
    email_verified: z.boolean(),
    public_user_id: z.string(),
    agrees_to_product_updates: z.boolean(),
    ccpa_opt_out: z.boolean(),
    geo_location: GeoLocation.nullish(),
    totp_mfa_factor: z.object({ enabled: z.boolean() }).nullable(),
    sms_mfa_factor: z.null(),
    has_backup_code: z.boolean(),
    moderation_warning_dismissed: z.boolean(),
    is_producer: z.boolean(),
    is_in_probation: z.boolean(),
    accepted_bipa_terms: z.boolean(),
    locale: z.string().nullish(),
    /** accounts §3 Workspace.session_inactivity_timeout of the current workspace, in seconds. */
    session_inactivity_timeout: z.number().int().nullish(),
    /** accounts §3: the user's own voices (cloned and designed; premade voices are everyone's). */
    voices: z.array(z.string()),
    /** accounts §3: the user's audio-native player settings; null until set up. */
    audio_native: z.record(z.string(), z.unknown()).nullable(),
    /** accounts §3: which one-time prompts the user has seen. */
    prompts_shown: z.object({
      long_content_use_projects: z.boolean(),
      dubbing_use_cases_banner: z.boolean(),
    }),
    /** accounts §3: when the user agreed to each set of terms (unix seconds), null where never. */
    terms_agreed_to: TermsAgreedTo,
    /** accounts §3: the onboarding survey's answers; null until it is taken. */
    onboarding_survey: z
      .object({
        first_name: z.string().nullable(),
        role: z.string().nullable(),
        subrole: z.string().nullable(),
        timezone: z.string().nullable(),
        source: z.string().nullable(),
      })
      .nullable(),
    /** accounts §3: the onboarding checklist; null until it is initiated. */
    onboarding_checklist: z
      .object({
        checklist_id: z.string(),
        items: z.array(z.object({ onboarding_checklist_item_id: z.string(), is_completed: z.boolean() })),
        hidden: z.boolean(),
      })
      .nullable(),
    profile_page_handle: z.string().nullable(),
    partnerstack_partner_default_link: z.string().nullable(),
    /**
     * Parla: the server's feature configs the web app needs (history/voices §6 `feedback_enabled`; §2
     * `tts_video_generation`: the Share button opens the video dialog).
     */
    feature_configs: z.object({ feedback_enabled: z.boolean(), tts_video_generation: z.boolean() }),
  })
  .meta({ id: 'User' });
export type UserResponse = z.infer<typeof UserResponse>;

/**
 * The accounts §3 fields whose features come with later issues, as they stand for every user until then:
 * no voices of one's own, no audio-native player, no prompt shown, no profile page, no partner link. (The
 * survey and checklist fields are the onboarding module's.)
 */
export const USER_FIELDS_NOT_YET_IN_USE = {
  voices: [],
  audio_native: null,
  prompts_shown: { long_content_use_projects: false, dubbing_use_cases_banner: false },
  profile_page_handle: null,
  partnerstack_partner_default_link: null,
} satisfies Partial<UserResponse>;

export const getUserRoute = defineRoute({
  method: 'GET',
  path: '/v1/user',
  summary: 'The signed-in user (or the owner of the API key)',
  tags: ['user'],
  response: UserResponse,
});

export const getSubscriptionRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/subscription',
  summary: 'The subscription of the caller’s workspace',
  tags: ['user'],
  response: ExtendedSubscriptionResponse,
});

/** accounts §3 "User metadata edit". */
export const editUserMetadataRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/edit-user-metadata',
  summary: 'Change the user’s consent and location metadata',
  tags: ['user'],
  body: z
    .object({
      agrees_to_product_updates: z.boolean(),
      geo_location: GeoLocation,
      ccpa_opt_out: z.boolean(),
      allowed_to_extend_character_limit: z.boolean(),
      max_character_limit_extension: z.number().int().min(0).max(1_000_000_000).nullable(),
    })
    .partial()
    .strict(),
  response: Ok,
});

export const editUserRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/edit',
  summary: 'Change the user’s name and locale',
  tags: ['user'],
  body: z
    .object({
      first_name: z.string().trim().min(1, 'Enter your first name.').max(100),
      locale: z.string().trim().min(2).max(16),
    })
    .partial()
    .strict(),
  response: Ok,
});

export const dismissModerationWarningRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/dismiss-moderation-warning',
  summary: 'Hide the moderation warning',
  tags: ['user'],
  response: Ok,
});

/** Sign-up's first step (accounts §7): may this address sign up, and the attribution to keep. */
export const preSignUpRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/pre-sign-up',
  summary: 'Check an address before sign-up',
  tags: ['user'],
  body: z.object({
    email: EmailAddress,
    account_metadata: z.record(z.string(), z.unknown()).optional(),
    recaptcha_token: z.string().max(4096).optional(),
    pid: z.string().max(200).optional(),
    xid: z.string().max(200).optional(),
    invite_code: z.string().max(200).optional(),
    gcp_marketplace_jwt: z.string().max(8192).optional(),
  }),
  response: z.object({ status: z.literal('ok'), email_available: z.boolean() }),
});

/**
 * Sign-up's last step (accounts §7): attribution of the new account. Parla adds `referral`, the browser's
 * referral record (accounts §3, §9), kept as `referred_by_code` when it is live and names someone else.
 */
export const postRegistrationUserSetupRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/post-registration-user-setup',
  summary: 'Record where a new account came from',
  tags: ['user'],
  body: z.object({
    pid: z.string().max(200).optional(),
    xid: z.string().max(200).optional(),
    gcp_marketplace_jwt: z.string().max(8192).optional(),
    referral: ReferralRecord.optional(),
  }),
  response: Ok,
});

export const getRandomUserIdRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/rand',
  summary: 'A random id for client-side sampling, stable per user',
  tags: ['user'],
  response: z.object({ rand: z.number().min(0).max(1) }),
});

export const generateNameRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/generate-name',
  summary: 'Suggest a public name (adjective + animal + number)',
  tags: ['user'],
  response: z.object({ name: z.string() }),
});

export const recordDeviceFingerprintRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/record-device-fingerprint',
  summary: 'Remember the device a user signed in from (kept as a hash)',
  tags: ['user'],
  body: z.object({ fingerprint: z.string().min(8).max(512) }),
  response: z.object({ status: z.literal('ok'), new_device: z.boolean() }),
});

export const getReferralLinkRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/referral-link',
  summary: 'The user’s referral link (made on first ask)',
  tags: ['user'],
  response: z.object({ referral_link: z.string() }),
});

/** The header that carries a verified sensitive-action code (accounts §4). */
export const sensitiveActionHeader = 'xi-sensitive-action-code';

export const deleteUserRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/user/delete',
  summary: `Delete the account and its data (needs a verified sensitive-action code in ${sensitiveActionHeader})`,
  tags: ['user'],
  response: Ok,
});

/**
 * accounts §7 prepare-internal-verification: mail a sensitive-action link to the user’s address. The spec
 * also lists a `verification_code` in the body; a code the client picks would prove nothing about access to
 * the mailbox, so the server makes the code and mails it, and ignores any code sent here (the body is not
 * strict, so old clients that send one still work).
 */
export const prepareInternalVerificationRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/prepare-internal-verification',
  summary: 'Mail a link that proves access to the account’s address before a sensitive action',
  tags: ['user'],
  body: z.object({ email: EmailAddress }),
  response: Ok,
});

export const verifySensitiveActionCodeRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/verify-sensitive-action-code',
  summary: 'Confirm the code from a sensitive-action link (then send it with the action)',
  tags: ['user'],
  body: z.object({ verification_code: z.string().min(1).max(256) }),
  response: Ok,
});

export const sendEmailChangeVerificationRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/send-email-change-verification',
  summary: `Mail a code to a new address (needs a verified sensitive-action code in ${sensitiveActionHeader})`,
  tags: ['user'],
  body: z.object({ new_email: EmailAddress }),
  response: Ok,
});

export const updateEmailRoute = defineRoute({
  method: 'PUT',
  path: '/v1/user/email',
  summary: 'Change the address with the mailed code, or revert a change from the old address',
  tags: ['user'],
  query: z.object({
    verification_code: z.string().min(1).max(256),
    is_reverting: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
  }),
  response: z.object({ status: z.literal('ok'), email: z.string() }),
});
