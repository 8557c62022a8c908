import {
  isEnterpriseTier,
  maxVoiceAddEdits,
  type SubscriptionResponse,
  seatTypeOf,
  termsAgreedToOf,
  tierLimits,
  USER_FIELDS_NOT_YET_IN_USE,
  type UserResponse,
  type WorkspaceRole,
} from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import { defaultSubscription, type SubscriptionRow } from '../billing';
import { toUserOnboarding } from '../onboarding';
import type { UserRow } from '../users/users.tables';
import type { WorkspaceRow } from '../workspaces/workspaces.tables';
import type { VoiceSlots } from './account.store';

/** The public API's SubscriptionResponse for a workspace (accounts §3 Subscription, §9 limits). */
export function toSubscription(
  workspace: WorkspaceRow,
  user?: UserRow,
  sub: SubscriptionRow = defaultSubscription(workspace.id, workspace.tier),
  slots: VoiceSlots = { used: 0, professional: 0 },
): SubscriptionResponse {
  const limits = tierLimits[workspace.tier];
  const enterprise = isEnterpriseTier(workspace.tier);
  const allowedToExtend = user?.allowedToExtendCharacterLimit ?? false;
  return {
    tier: workspace.tier,
    character_count: workspace.characterCount,
    character_limit: limits.characterLimit,
    max_character_limit_extension: user?.maxCharacterLimitExtension ?? null,
    max_credit_limit_extension: enterprise ? 'unlimited' : (user?.maxCharacterLimitExtension ?? 0),
    can_extend_character_limit: enterprise || (workspace.tier !== 'free' && allowedToExtend),
    allowed_to_extend_character_limit: allowedToExtend,
    next_character_count_reset_unix: workspace.nextCharacterCountResetAt
      ? toUnixSeconds(workspace.nextCharacterCountResetAt)
      : null,
    voice_slots_used: slots.used,
    professional_voice_slots_used: slots.professional,
    professional_voice_slots_used_in_workspace: slots.professional,
    voice_limit: limits.voiceLimit,
    max_voice_add_edits: maxVoiceAddEdits(limits.voiceLimit),
    voice_add_edit_counter: workspace.voiceAddEditCount,
    professional_voice_limit: limits.professionalVoiceLimit,
    can_extend_voice_limit: false,
    can_use_instant_voice_cloning: limits.canUseInstantVoiceCloning,
    can_use_professional_voice_cloning: limits.canUseProfessionalVoiceCloning,
    currency: sub.currency,
    current_overage: { amount: '0.00', currency: sub.currency },
    status: sub.status,
    billing_period: sub.billingPeriod,
    character_refresh_period: 'monthly_period',
  };
}

/** The user document of accounts §3 with the public API's fields (`GET /v1/user`). */
export function toUserDocument({
  user,
  workspace,
  sub,
  role,
  slots,
  keyPreview,
  features,
}: {
  user: UserRow;
  workspace: WorkspaceRow;
  sub: SubscriptionRow;
  role: WorkspaceRole;
  slots: VoiceSlots;
  /** The preview of the user's newest live API key. */
  keyPreview: string | null;
  features: { feedbackEnabled: boolean; ttsVideoGeneration: boolean };
}): UserResponse {
  const createdAt = toUnixSeconds(user.createdAt);
  return {
    user_id: user.id,
    workspace_id: workspace.id,
    subscription: toSubscription(workspace, user, sub, slots),
    is_new_user: user.isNewUser,
    can_use_delayed_payment_methods: false,
    is_onboarding_completed: user.isOnboardingCompleted,
    is_onboarding_checklist_completed: user.isOnboardingChecklistCompleted,
    first_name: user.firstName,
    is_api_key_hashed: true,
    xi_api_key_preview: keyPreview,
    referral_link_code: user.referralLinkCode,
    created_at: createdAt,
    created_at_unix: createdAt,
    seat_type: seatTypeOf(role),
    email: user.email,
    email_verified: user.emailVerifiedAt !== null,
    public_user_id: user.publicUserId,
    agrees_to_product_updates: user.agreesToProductUpdates,
    ccpa_opt_out: user.ccpaOptOut,
    geo_location: user.geoLocation ?? null,
    totp_mfa_factor: user.totpSecret ? { enabled: user.totpEnabledAt !== null } : null,
    sms_mfa_factor: null,
    has_backup_code: user.backupCodeHash !== null,
    moderation_warning_dismissed: user.moderationWarningDismissed,
    is_producer: user.isProducer,
    is_in_probation: user.isInProbation,
    accepted_bipa_terms: user.acceptedBipaTerms,
    locale: user.locale,
    session_inactivity_timeout: workspace.sessionInactivityTimeout,
    ...USER_FIELDS_NOT_YET_IN_USE,
    ...toUserOnboarding(user),
    terms_agreed_to: termsAgreedToOf(user.termsAgreedTo),
    feature_configs: {
      feedback_enabled: features.feedbackEnabled,
      tts_video_generation: features.ttsVideoGeneration,
    },
  };
}
