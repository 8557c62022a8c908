/**
 * The subscription tiers and the per-tier limits the user document reports (accounts §4 tier order, §9).
 * The billing issue adds prices and offers to this catalogue.
 */
export const SUBSCRIPTION_TIERS = [
  'free',
  'starter',
  'creator',
  'pro',
  'growing_business',
  'scale_2024_08_10',
  'enterprise',
  'trial',
] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];

/** How each tier is shown (accounts §4: growing_business is "Scale", scale_2024_08_10 is "Business"). */
export const tierDisplayNames: Record<SubscriptionTier, string> = {
  free: 'Free',
  starter: 'Starter',
  creator: 'Creator',
  pro: 'Pro',
  growing_business: 'Scale',
  scale_2024_08_10: 'Business',
  enterprise: 'Enterprise',
  trial: 'Trial',
};

export interface TierLimits {
  /** Credits per month; -1 means unlimited (accounts §9). */
  characterLimit: number;
  /** Custom voices. */
  voiceLimit: number;
  professionalVoiceLimit: number;
  canUseInstantVoiceCloning: boolean;
  canUseProfessionalVoiceCloning: boolean;
  /** Concurrent generation requests. */
  concurrency: number;
  /** Default seats; the server's own value counts only for trial and enterprise. */
  maxSeats: number;
}

/**
 * accounts §9. Professional cloning: Creator 1, Business 3, free none; the spec gives no number for Pro
 * and Scale, so they keep Creator's 1. Enterprise and trial have no published numbers: unlimited credits
 * (-1) and Business's voice and concurrency figures.
 */
export const tierLimits: Record<SubscriptionTier, TierLimits> = {
  free: { ...limits(10_000, 3, 0, 2, 1), canUseInstantVoiceCloning: false },
  starter: limits(30_000, 10, 0, 3, 1),
  creator: limits(100_000, 30, 1, 5, 1),
  pro: limits(500_000, 160, 1, 10, 1),
  growing_business: limits(2_000_000, 660, 1, 15, 3),
  scale_2024_08_10: limits(11_000_000, 660, 3, 15, 5),
  enterprise: limits(-1, 660, 3, 15, 25),
  trial: limits(-1, 660, 3, 15, 25),
};

function limits(
  characterLimit: number,
  voiceLimit: number,
  professionalVoiceLimit: number,
  concurrency: number,
  maxSeats: number,
): TierLimits {
  return {
    characterLimit,
    voiceLimit,
    professionalVoiceLimit,
    canUseInstantVoiceCloning: true, // from Starter (accounts §9); free overrides
    canUseProfessionalVoiceCloning: professionalVoiceLimit > 0,
    concurrency,
    maxSeats,
  };
}

/** accounts §9: max voice add-edits = round(1.5 × voice_limit + 50). */
export function maxVoiceAddEdits(voiceLimit: number): number {
  return Math.round(1.5 * voiceLimit + 50);
}

/** accounts §4: enterprise and trial are the unlimited-style tiers; paid means neither free nor trial. */
export function isEnterpriseTier(tier: SubscriptionTier): boolean {
  return tier === 'enterprise' || tier === 'trial';
}
