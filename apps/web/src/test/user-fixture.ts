import {
  NO_TERMS_AGREED,
  type SessionResponse,
  USER_FIELDS_NOT_YET_IN_USE,
  type UserResponse,
  UserResponse as UserSchema,
} from '@parla/contracts';
import { freeSubscription } from './billing-fixture';

/** A complete, contract-valid `GET /v1/user` document for tests; `overrides` change any field. */
export function makeUser(overrides: Partial<UserResponse> = {}): UserResponse {
  return UserSchema.parse({
    user_id: 'u1',
    workspace_id: 'w1',
    subscription: freeSubscription,
    is_new_user: true,
    can_use_delayed_payment_methods: false,
    is_onboarding_completed: true,
    is_onboarding_checklist_completed: true,
    first_name: null,
    is_api_key_hashed: true,
    xi_api_key_preview: null,
    referral_link_code: null,
    created_at: 1_790_000_000,
    created_at_unix: 1_790_000_000,
    seat_type: 'workspace_admin',
    email: 'ada@example.test',
    email_verified: true,
    public_user_id: 'p1',
    agrees_to_product_updates: false,
    ccpa_opt_out: false,
    geo_location: null,
    totp_mfa_factor: null,
    sms_mfa_factor: null,
    has_backup_code: false,
    moderation_warning_dismissed: false,
    is_producer: false,
    is_in_probation: false,
    accepted_bipa_terms: false,
    locale: null,
    session_inactivity_timeout: null,
    ...USER_FIELDS_NOT_YET_IN_USE,
    onboarding_survey: null,
    onboarding_checklist: null,
    terms_agreed_to: NO_TERMS_AGREED,
    feature_configs: { feedback_enabled: true, tts_video_generation: true },
    ...overrides,
  });
}

/** A session as sign-in and refresh answer it. */
export function makeSession(accessToken = 'fresh'): SessionResponse {
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: 300,
    user_id: 'u1',
    workspace_id: 'w1',
  };
}
