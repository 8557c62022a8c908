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

/** The plans on sale, in tier order (accounts §9's six plans plus enterprise). */
export const PLAN_IDS = [
  'free',
  'starter',
  'creator',
  'pro',
  'growing_business',
  'scale_2024_08_10',
  'enterprise',
] as const;
export type PlanId = (typeof PLAN_IDS)[number];
/** The plans a workspace can buy by card (not free, not the contract-only enterprise). */
export const PAID_PLAN_IDS = ['starter', 'creator', 'pro', 'growing_business', 'scale_2024_08_10'] as const;
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];
export function isPaidPlanId(tier: string): tier is PaidPlanId {
  return (PAID_PLAN_IDS as readonly string[]).includes(tier);
}

export const CURRENCIES = ['usd', 'eur'] as const;
export type Currency = (typeof CURRENCIES)[number];
/** The API's billing periods (accounts §3 Subscription.billing_period). */
export const BILLING_PERIODS = ['monthly_period', 'annual_period'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];
/** The pricing page's period toggle. */
export type PricePeriod = 'monthly' | 'yearly';
export const pricePeriodOf = (period: BillingPeriod): PricePeriod =>
  period === 'annual_period' ? 'yearly' : 'monthly';
export const billingPeriodOf = (period: PricePeriod): BillingPeriod =>
  period === 'yearly' ? 'annual_period' : 'monthly_period';

/** One plan's numbers from accounts §9. Money is in cents; null is "custom" (enterprise). */
export interface PlanNumbers {
  /** Monthly price per currency. */
  monthlyCents: Record<Currency, number> | null;
  /** Annual total per currency. */
  annualCents: Record<Currency, number> | null;
  /** Credits per month; -1 unlimited. */
  credits: number;
  /** Audio minutes on the plan card; -1 unlimited. */
  audioMinutes: number;
  /** Audio minutes in the usage block (Creator shows 120 there). */
  usageAudioMinutes: number;
  customVoices: number;
  concurrency: number;
  professionalClones: number;
  instantCloning: boolean;
  commercialLicence: boolean;
  /** Extra credits per 1000, in USD; null when the plan cannot buy extra credits. */
  extraCreditsPer1000Usd: number | null;
  /** Billing thresholds in cents per currency; null when the plan has none. */
  billingThresholdCents: Record<Currency, number> | null;
  studioLimit: number;
  soundEffectSeconds: number;
  conversationalMinutes: number;
  conversationalConcurrency: number;
  /** USD per extra conversational minute, monthly and annual; null when none is sold. */
  extraConversationalMinuteUsd: { monthly: number; annual: number } | null;
  seats: number;
  /** First-month price in cents per currency for users never on a paid tier (accounts §9). */
  firstMonthCents: Record<Currency, number> | null;
  firstMonthMessage: string | null;
}

const both = (usd: number, eur: number): Record<Currency, number> => ({ usd, eur });

/**
 * accounts §9, every number. Where §9 lists values "across the six plans" they go free, starter, creator,
 * pro, Scale, Business. The three extra conversational-minute prices (0.12, 0.11, 0.10) are read as
 * Creator, Pro and Scale, the plans that also sell extra credits. Starter's first month is $1 (and €1);
 * §9 names only Creator's label, so Starter's says what the discount is. Enterprise is custom.
 */
export const PLAN_NUMBERS: Record<PlanId, PlanNumbers> = {
  free: {
    monthlyCents: both(0, 0),
    annualCents: null,
    credits: 10_000,
    audioMinutes: 10,
    usageAudioMinutes: 10,
    customVoices: 3,
    concurrency: 2,
    professionalClones: 0,
    instantCloning: false,
    commercialLicence: false,
    extraCreditsPer1000Usd: null,
    billingThresholdCents: null,
    studioLimit: 3,
    soundEffectSeconds: 250,
    conversationalMinutes: 15,
    conversationalConcurrency: 4,
    extraConversationalMinuteUsd: null,
    seats: 1,
    firstMonthCents: null,
    firstMonthMessage: null,
  },
  starter: {
    monthlyCents: both(500, 475),
    annualCents: both(5_000, 4_750),
    credits: 30_000,
    audioMinutes: 30,
    usageAudioMinutes: 30,
    customVoices: 10,
    concurrency: 3,
    professionalClones: 0,
    instantCloning: true,
    commercialLicence: true,
    extraCreditsPer1000Usd: null,
    billingThresholdCents: null,
    studioLimit: 20,
    soundEffectSeconds: 750,
    conversationalMinutes: 50,
    conversationalConcurrency: 6,
    extraConversationalMinuteUsd: null,
    seats: 1,
    firstMonthCents: both(100, 100),
    firstMonthMessage: 'First month 80% off',
  },
  creator: {
    monthlyCents: both(2_200, 2_100),
    annualCents: both(22_000, 21_000),
    credits: 100_000,
    audioMinutes: 100,
    usageAudioMinutes: 120,
    customVoices: 30,
    concurrency: 5,
    professionalClones: 1,
    instantCloning: true,
    commercialLicence: true,
    extraCreditsPer1000Usd: 0.3,
    billingThresholdCents: both(4_400, 4_200),
    studioLimit: 1000,
    soundEffectSeconds: 2500,
    conversationalMinutes: 250,
    conversationalConcurrency: 10,
    extraConversationalMinuteUsd: { monthly: 0.12, annual: 0.12 },
    seats: 1,
    firstMonthCents: both(1_100, 1_050),
    firstMonthMessage: 'First month 50% off',
  },
  pro: {
    monthlyCents: both(9_900, 9_400),
    annualCents: both(99_000, 94_000),
    credits: 500_000,
    audioMinutes: 600,
    usageAudioMinutes: 600,
    customVoices: 160,
    concurrency: 10,
    professionalClones: 1,
    instantCloning: true,
    commercialLicence: true,
    extraCreditsPer1000Usd: 0.24,
    billingThresholdCents: both(19_800, 18_800),
    studioLimit: 3000,
    soundEffectSeconds: 12_500,
    conversationalMinutes: 1100,
    conversationalConcurrency: 20,
    extraConversationalMinuteUsd: { monthly: 0.11, annual: 0.11 },
    seats: 1,
    firstMonthCents: null,
    firstMonthMessage: null,
  },
  growing_business: {
    monthlyCents: both(33_000, 31_400),
    annualCents: both(330_000, 314_000),
    credits: 2_000_000,
    audioMinutes: 2400,
    usageAudioMinutes: 2400,
    customVoices: 660,
    concurrency: 15,
    professionalClones: 1,
    instantCloning: true,
    commercialLicence: true,
    extraCreditsPer1000Usd: 0.18,
    billingThresholdCents: both(66_000, 62_800),
    studioLimit: 20_000,
    soundEffectSeconds: 50_000,
    conversationalMinutes: 3600,
    conversationalConcurrency: 30,
    extraConversationalMinuteUsd: { monthly: 0.1, annual: 0.1 },
    seats: 3,
    firstMonthCents: null,
    firstMonthMessage: null,
  },
  scale_2024_08_10: {
    monthlyCents: both(132_000, 132_000),
    annualCents: both(1_320_000, 1_320_000),
    credits: 11_000_000,
    audioMinutes: 13_200,
    usageAudioMinutes: 13_200,
    customVoices: 660,
    concurrency: 15,
    professionalClones: 3,
    instantCloning: true,
    commercialLicence: true,
    extraCreditsPer1000Usd: 0.1,
    billingThresholdCents: both(66_000, 62_800),
    studioLimit: 20_000,
    soundEffectSeconds: 275_000,
    conversationalMinutes: 13_750,
    conversationalConcurrency: 30,
    extraConversationalMinuteUsd: { monthly: 0.096, annual: 0.08 },
    seats: 5,
    firstMonthCents: null,
    firstMonthMessage: null,
  },
  enterprise: {
    monthlyCents: null,
    annualCents: null,
    credits: -1,
    audioMinutes: -1,
    usageAudioMinutes: -1,
    customVoices: 660,
    concurrency: 15,
    professionalClones: 3,
    instantCloning: true,
    commercialLicence: true,
    extraCreditsPer1000Usd: null,
    billingThresholdCents: null,
    studioLimit: 20_000,
    soundEffectSeconds: 275_000,
    conversationalMinutes: 13_750,
    conversationalConcurrency: 30,
    extraConversationalMinuteUsd: null,
    seats: 25,
    firstMonthCents: null,
    firstMonthMessage: null,
  },
};

/** accounts §9's "per-tier numeric table" (its purpose is not given; kept as data). */
export const TIER_NUMERIC_TABLE: Record<SubscriptionTier, number> = {
  free: 0,
  starter: 0,
  creator: 1000,
  pro: 3000,
  growing_business: 20_000,
  scale_2024_08_10: 20_000,
  enterprise: -1,
  trial: -1,
};

/** Position in the tier order of accounts §4 (trial ranks with enterprise). */
export function tierRank(tier: SubscriptionTier): number {
  return tier === 'trial' ? SUBSCRIPTION_TIERS.indexOf('enterprise') : SUBSCRIPTION_TIERS.indexOf(tier);
}

/** Cents for one billing period of a paid plan. */
export function planPriceCents(plan: PaidPlanId, period: BillingPeriod, currency: Currency): number {
  const numbers = PLAN_NUMBERS[plan];
  const table = period === 'annual_period' ? numbers.annualCents : numbers.monthlyCents;
  if (!table) throw new Error(`plan ${plan} has no price`);
  return table[currency];
}

/** accounts §9 "Price display": usd with $, otherwise the euro sign; whole amounts show no cents. */
export function formatPrice(amount: number, currency: Currency): string {
  const text = Number.isInteger(amount) ? amount.toLocaleString('en-US') : amount.toFixed(2);
  return currency === 'usd' ? `$${text}` : `€${text}`;
}

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
  /** Conversation minutes per period with agents (accounts §9: 15, 50, 250, 1,100, 3,600, 13,750). */
  conversationalMinutes: number;
  /** Conversations open at once (accounts §9: 4, 6, 10, 20, 30, 30). */
  conversationalConcurrency: number;
  /** Whether minutes past the plan's go on as extra minutes (the plans §9 prices them for). */
  extraConversationalMinutes: boolean;
  /** Studio projects a workspace may hold (accounts §9: 3, 20, 1,000, 3,000, 20,000, 20,000). */
  studioProjects: number;
}

/**
 * accounts §9, read from the plan catalogue below. Professional cloning: Creator 1, Business 3, free
 * none; the spec gives no number for Pro and Scale, so they keep Creator's 1. Trial is treated as
 * enterprise (accounts §4): unlimited credits and Business's voice and concurrency figures.
 */
export const tierLimits: Record<SubscriptionTier, TierLimits> = {
  free: limitsOf('free'),
  starter: limitsOf('starter'),
  creator: limitsOf('creator'),
  pro: limitsOf('pro'),
  growing_business: limitsOf('growing_business'),
  scale_2024_08_10: limitsOf('scale_2024_08_10'),
  enterprise: limitsOf('enterprise'),
  trial: limitsOf('enterprise'),
};

function limitsOf(plan: PlanId): TierLimits {
  const numbers = PLAN_NUMBERS[plan];
  return {
    characterLimit: numbers.credits,
    voiceLimit: numbers.customVoices,
    professionalVoiceLimit: numbers.professionalClones,
    canUseInstantVoiceCloning: numbers.instantCloning,
    canUseProfessionalVoiceCloning: numbers.professionalClones > 0,
    concurrency: numbers.concurrency,
    maxSeats: numbers.seats,
    conversationalMinutes: numbers.conversationalMinutes,
    conversationalConcurrency: numbers.conversationalConcurrency,
    extraConversationalMinutes: numbers.extraConversationalMinuteUsd !== null,
    studioProjects: numbers.studioLimit,
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
