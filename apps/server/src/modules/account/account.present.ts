import {
  isEnterpriseTier,
  maxVoiceAddEdits,
  type SubscriptionResponse,
  seatTypeOf,
  tierLimits,
  USER_FIELDS_NOT_YET_IN_USE,
  type UserResponse,
  type WorkspaceRole,
} from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import type { SecondFactor } from '../auth';
import type { BillingState } from '../billing';
import type { UserConsent } from '../consent';
import type { UserOnboarding } from '../onboarding';
import type { UserRow } from '../users/users.tables';

/** A workspace's plan and what it used this period: what the subscription document shows. */
export interface PlanUsage {
  /** The workspace, its subscription and its next credit reset (the billing module's). */
  plan: BillingState;
  /** Credits spent this period (accounts §3 character_count). */
  creditsUsed: number;
  /** Own voices, professional clones among them, and voice adds and edits this period. */
  voices: { used: number; professional: number; addEdits: number };
}

/** The public API's SubscriptionResponse for a workspace (accounts §3 Subscription, §9 limits). */
export function toSubscription(
  { plan, creditsUsed, voices }: PlanUsage,
  user?: UserRow,
): SubscriptionResponse {
  const { workspace, sub } = plan;
  const limits = tierLimits[workspace.tier];
  const enterprise = isEnterpriseTier(workspace.tier);
  const allowedToExtend = user?.allowedToExtendCharacterLimit ?? false;
  return {
    tier: workspace.tier,
    character_count: creditsUsed,
    character_limit: limits.characterLimit,
    max_character_limit_extension: user?.maxCharacterLimitExtension ?? null,
    max_credit_limit_extension: enterprise ? 'unlimited' : (user?.maxCharacterLimitExtension ?? 0),
    can_extend_character_limit: enterprise || (workspace.tier !== 'free' && allowedToExtend),
    allowed_to_extend_character_limit: allowedToExtend,
    next_character_count_reset_unix: toUnixSeconds(plan.nextCreditResetAt),
    voice_slots_used: voices.used,
    professional_voice_slots_used: voices.professional,
    professional_voice_slots_used_in_workspace: voices.professional,
    voice_limit: limits.voiceLimit,
    max_voice_add_edits: maxVoiceAddEdits(limits.voiceLimit),
    voice_add_edit_counter: voices.addEdits,
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
  usage,
  role,
  onboarding,
  consent,
  secondFactor,
  referralLinkCode,
  keyPreview,
  features,
}: {
  user: UserRow;
  usage: PlanUsage;
  role: WorkspaceRole;
  onboarding: UserOnboarding;
  consent: UserConsent;
  secondFactor: SecondFactor;
  referralLinkCode: string | null;
  /** The preview of the user's newest live API key. */
  keyPreview: string | null;
  features: { feedbackEnabled: boolean; ttsVideoGeneration: boolean };
}): UserResponse {
  const createdAt = toUnixSeconds(user.createdAt);
  const { workspace } = usage.plan;
  return {
    user_id: user.id,
    workspace_id: workspace.id,
    subscription: toSubscription(usage, user),
    is_new_user: user.isNewUser,
    can_use_delayed_payment_methods: false,
    first_name: user.firstName,
    is_api_key_hashed: true,
    xi_api_key_preview: keyPreview,
    referral_link_code: referralLinkCode,
    created_at: createdAt,
    created_at_unix: createdAt,
    seat_type: seatTypeOf(role),
    email: user.email,
    email_verified: user.emailVerifiedAt !== null,
    public_user_id: user.publicUserId,
    agrees_to_product_updates: user.agreesToProductUpdates,
    totp_mfa_factor: secondFactor.totp,
    sms_mfa_factor: null,
    has_backup_code: secondFactor.hasBackupCode,
    moderation_warning_dismissed: user.moderationWarningDismissed,
    is_producer: user.isProducer,
    is_in_probation: user.isInProbation,
    locale: user.locale,
    session_inactivity_timeout: workspace.sessionInactivityTimeout,
    ...USER_FIELDS_NOT_YET_IN_USE,
    ...onboarding,
    ...consent,
    feature_configs: {
      feedback_enabled: features.feedbackEnabled,
      tts_video_generation: features.ttsVideoGeneration,
    },
  };
}
