import { z } from 'zod';
import { MOST_POPULAR_PLAN, OFFERED_PLANS } from './billing-rules';
import {
  BILLING_PERIODS,
  CURRENCIES,
  type Currency,
  PAID_PLAN_IDS,
  PLAN_IDS,
  PLAN_NUMBERS,
  type PlanId,
  SUBSCRIPTION_TIERS,
  tierDisplayNames,
} from './plans';
import { defineRoute } from './routes';

const Ok = z.object({ status: z.literal('ok') });
const Url = z.object({ url: z.string() });

const PriceLine = z.object({
  price: z.number(),
  discounted_price: z.number().nullable(),
  period: z.enum(['month', 'year']),
  discount_message: z.string().nullable(),
});

/** accounts §3 "Plan offer". Prices are in currency units (22 is $22.00); null is custom. */
export const PlanOffer = z
  .object({
    name: z.string(),
    id: z.string(),
    plan_id: z.enum(PLAN_IDS),
    plan_type: z.enum(['individual', 'company']),
    currency: z.enum(CURRENCIES),
    character_limit: z.number().int(),
    audio_limit_minutes: z.number().int(),
    description: z.string(),
    benefits: z.array(z.string()),
    most_popular: z.boolean(),
    enterprise: z.boolean(),
    usage: z.object({
      monthly_character_limit: z.number().int(),
      audio_limit_minutes: z.number().int(),
      additional_characters_cost: z.number().nullable(),
      custom_voices_limit: z.number().int(),
    }),
    quality_and_formats: z.array(z.string()),
    features: z.object({
      instant_voice_cloning: z.boolean(),
      professional_voice_cloning: z.boolean(),
      commercial_license: z.boolean(),
      api_access: z.boolean(),
    }),
    products: z.object({ audio_native: z.boolean(), dubbing_studio: z.boolean(), studio: z.boolean() }),
    licensing_and_analytics: z.array(z.string()),
    pricing: z.object({ monthly: PriceLine.nullable(), yearly: PriceLine.nullable() }),
    speech: z.object({ concurrency: z.number().int(), seats: z.number().int() }),
    dubbing: z.object({ audio_minutes: z.number().int() }),
    sound_effects: z.object({ seconds: z.number().int() }),
    studio: z.object({ projects: z.number().int() }),
    conversational_ai: z.object({
      minutes: z.number().int(),
      concurrency: z.number().int(),
      extra_minute_cost: z.object({ monthly: z.number(), annual: z.number() }).nullable(),
    }),
    audio_native: z.object({ available: z.boolean() }),
    voice_isolator: z.object({ available: z.boolean() }),
    speech_to_text: z.object({ available: z.boolean() }),
  })
  .meta({ id: 'PlanOffer' });
export type PlanOffer = z.infer<typeof PlanOffer>;

const descriptions: Record<PlanId, string> = {
  free: 'Start creating with speech and sound, no card needed.',
  starter: 'For hobbyists publishing their first audio.',
  creator: 'For creators making premium content for global audiences.',
  pro: 'For creators ramping up their content production.',
  growing_business: 'For teams publishing at scale.',
  scale_2024_08_10: 'For businesses with high-volume audio.',
  enterprise: 'Custom terms, volumes and support for large organisations.',
};

const cents = (value: number) => Math.round(value) / 100;
const perMonth = (annualCents: number) => Math.round(annualCents / 12) / 100;

/**
 * The plan offers of accounts §3 built from §9's numbers, in the card order. The first-month offers
 * (Starter $1, Creator $11) are the monthly discounted price only when the user is eligible (never on a
 * paid tier); yearly prices show their per-month figure as the discounted price.
 */
export function planOffers(currency: Currency, options: { firstMonthOfferEligible: boolean }): PlanOffer[] {
  return [...OFFERED_PLANS, 'enterprise' as const].map((plan) => planOffer(plan, currency, options));
}

export function planOffer(
  plan: PlanId,
  currency: Currency,
  options: { firstMonthOfferEligible: boolean },
): PlanOffer {
  const n = PLAN_NUMBERS[plan];
  const firstMonth = options.firstMonthOfferEligible ? n.firstMonthCents : null;
  const monthly = n.monthlyCents
    ? {
        price: cents(n.monthlyCents[currency]),
        discounted_price: firstMonth ? cents(firstMonth[currency]) : null,
        period: 'month' as const,
        discount_message: firstMonth ? n.firstMonthMessage : null,
      }
    : null;
  const yearly = n.annualCents
    ? {
        price: cents(n.annualCents[currency]),
        discounted_price: perMonth(n.annualCents[currency]),
        period: 'year' as const,
        discount_message: '2 months free',
      }
    : null;
  const paid = plan !== 'free';
  const company = plan === 'growing_business' || plan === 'scale_2024_08_10' || plan === 'enterprise';
  const minutes = (value: number) => (value === -1 ? 'Unlimited' : value.toLocaleString('en-US'));
  const benefits = [
    n.credits === -1 ? 'Unlimited credits' : `${n.credits.toLocaleString('en-US')} credits per month`,
    `${minutes(n.audioMinutes)} minutes of high-quality text to speech`,
    `${n.customVoices} custom voices`,
    ...(n.instantCloning ? ['Instant voice cloning'] : []),
    ...(n.professionalClones > 0
      ? [`Professional voice cloning (${n.professionalClones} voice${n.professionalClones > 1 ? 's' : ''})`]
      : []),
    ...(n.commercialLicence ? ['Commercial license'] : []),
    `${n.concurrency} concurrent requests`,
    ...(n.seats > 1 ? [`${n.seats} workspace seats`] : []),
  ];
  return {
    name: tierDisplayNames[plan],
    id: plan,
    plan_id: plan,
    plan_type: company ? 'company' : 'individual',
    currency,
    character_limit: n.credits,
    audio_limit_minutes: n.audioMinutes,
    description: descriptions[plan],
    benefits,
    most_popular: plan === MOST_POPULAR_PLAN,
    enterprise: plan === 'enterprise',
    usage: {
      monthly_character_limit: n.credits,
      audio_limit_minutes: n.usageAudioMinutes,
      additional_characters_cost: n.extraCreditsPer1000Usd,
      custom_voices_limit: n.customVoices,
    },
    quality_and_formats: [
      '128 kbps MP3',
      ...(plan === 'creator' || (paid && plan !== 'starter') ? ['192 kbps MP3'] : []),
      ...(paid && plan !== 'starter' && plan !== 'creator' ? ['44.1 kHz PCM via the API'] : []),
    ],
    features: {
      instant_voice_cloning: n.instantCloning,
      professional_voice_cloning: n.professionalClones > 0,
      commercial_license: n.commercialLicence,
      api_access: true,
    },
    products: { audio_native: paid, dubbing_studio: paid, studio: true },
    licensing_and_analytics: n.commercialLicence
      ? ['Commercial license', ...(company ? ['Usage analytics'] : [])]
      : ['Attribution required'],
    pricing: { monthly, yearly },
    speech: { concurrency: n.concurrency, seats: n.seats },
    dubbing: { audio_minutes: n.audioMinutes },
    sound_effects: { seconds: n.soundEffectSeconds },
    studio: { projects: n.studioLimit },
    conversational_ai: {
      minutes: n.conversationalMinutes,
      concurrency: n.conversationalConcurrency,
      extra_minute_cost: n.extraConversationalMinuteUsd,
    },
    audio_native: { available: paid },
    voice_isolator: { available: true },
    speech_to_text: { available: true },
  };
}

// ---- Invoices, pending changes, the billing overview -------------------------------------------------

/** The public API's InvoiceResponse. */
export const Invoice = z
  .object({
    invoice_id: z.string(),
    amount_due_cents: z.number().int(),
    subtotal_cents: z.number().int(),
    tax_cents: z.number().int(),
    discount_percent_off: z.number().nullable(),
    discount_amount_off: z.number().nullable(),
    discounts: z.array(
      z.object({ discount_percent_off: z.number().nullish(), discount_amount_off: z.number().nullish() }),
    ),
    next_payment_attempt_unix: z.number().int(),
    payment_intent_status: z
      .enum(['requires_payment_method', 'requires_action', 'succeeded', 'canceled'])
      .nullable(),
    payment_intent_statusses: z.array(z.string()),
    status: z.enum(['open', 'paid', 'void']),
    currency: z.enum(CURRENCIES),
    description: z.string(),
    created_unix: z.number().int(),
    paid_unix: z.number().int().nullable(),
  })
  .meta({ id: 'InvoiceResponse' });
export type Invoice = z.infer<typeof Invoice>;

/** The public API's pending change: a switch (downgrade) or a cancellation at the period end. */
export const PendingChange = z.union([
  z.object({
    kind: z.literal('change'),
    next_tier: z.enum(SUBSCRIPTION_TIERS),
    next_billing_period: z.enum(BILLING_PERIODS),
    timestamp_seconds: z.number().int(),
  }),
  z.object({ kind: z.literal('cancellation'), timestamp_seconds: z.number().int() }),
]);
export type PendingChange = z.infer<typeof PendingChange>;

export const PaymentMethod = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/**
 * `GET /v1/billing/overview`: what the plan cards and the subscription page need beyond the public
 * subscription: the provider, the workspace's card-payment-provider record (accounts §3 Workspace), the
 * payment method, the first-month eligibility and the invoices.
 */
export const BillingOverview = z
  .object({
    provider: z.enum(['test', 'stripe', 'none']),
    isolated_environment: z.boolean(),
    payment_provider: z.enum(['card', 'marketplace', 'consolidated', 'none']),
    can_change_payment_method: z.boolean(),
    card_payment_provider: z
      .object({
        current_period_end: z.number().int().nullable(),
        schedule: z
          .object({
            metadata: z.object({
              type: z.literal('downgrade'),
              downgrade_to: z.enum(SUBSCRIPTION_TIERS),
              downgrade_to_period: z.enum(BILLING_PERIODS),
            }),
          })
          .nullable(),
        cancel_at_period_end: z.boolean(),
      })
      .nullable(),
    payment_method: PaymentMethod.nullable(),
    first_month_offer_eligible: z.boolean(),
    previously_subscribed_tiers: z.array(z.enum(SUBSCRIPTION_TIERS)),
    discount: z
      .object({
        code: z.string(),
        percent_off: z.number().nullable(),
        amount_off: z.number().int().nullable(),
        months_left: z.number().int(),
      })
      .nullable(),
    /**
     * The discount the invoice of the current period got, while that period runs (issue 26 item 7: a
     * first-month offer is used up by the invoice it discounts, and `discount` alone then said "None"
     * for a period paid half price). `discount` is what is left for the invoices after it.
     */
    applied_discount: z
      .object({
        /** "First month 50% off", "SPRING: 20% off". */
        description: z.string(),
        /** What it took off that invoice (cents). */
        amount_off_cents: z.number().int(),
        invoice_id: z.string(),
        /** When the period it paid for ends (unix seconds). */
        period_end_unix: z.number().int(),
      })
      .nullable(),
    invoices: z.array(Invoice),
    /** accounts §9 seats of the plan (enforced on invites by the workspaces issue). */
    max_seats: z.number().int(),
  })
  .meta({ id: 'BillingOverview' });
export type BillingOverview = z.infer<typeof BillingOverview>;

// ---- The billing calls (accounts §7) -----------------------------------------------------------------

const SubscriptionType = z.enum(PAID_PLAN_IDS);
const Promocode = z.string().trim().min(1).max(64);
const IdempotencyKey = z.string().min(8).max(200);

export const listPlanOffersRoute = defineRoute({
  method: 'GET',
  path: '/v1/billing/plans',
  summary: 'The plan offers in a currency (no sign-in needed)',
  tags: ['billing'],
  query: z.object({ currency: z.enum(CURRENCIES).default('usd') }),
  response: z.object({ plans: z.array(PlanOffer) }),
});

export const getBillingOverviewRoute = defineRoute({
  method: 'GET',
  path: '/v1/billing/overview',
  summary: 'The workspace’s billing: provider, schedule, payment method, invoices',
  tags: ['billing'],
  response: BillingOverview,
});

export const createCheckoutSessionRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/create-checkout-session',
  summary: 'Start a checkout for a new subscription; answers the hosted checkout page’s URL',
  tags: ['billing'],
  body: z.object({
    subscription_type: SubscriptionType,
    billing_period: z.enum(BILLING_PERIODS),
    currency: z.enum(CURRENCIES),
    promocode: Promocode.nullish(),
    no_default_promocode: z.boolean().default(false),
    idempotency_key: IdempotencyKey.optional(),
  }),
  response: Url,
});

export const createUpdatePaymentMethodsSessionRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/create-update-payment-methods-session',
  summary: 'A hosted page to change the card',
  tags: ['billing'],
  body: z.object({}).optional(),
  response: Url,
});

export const createPortalSessionRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/create-portal-session',
  summary: 'The billing portal: payment method and invoices',
  tags: ['billing'],
  body: z.object({}).optional(),
  response: Url,
});

export const changeSubscriptionRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/change-subscription',
  summary: 'Upgrade now (prorated, charged now) or schedule a downgrade at the period end',
  tags: ['billing'],
  body: z.object({
    subscription_type: z.enum(['free', ...PAID_PLAN_IDS]),
    billing_period: z.enum(BILLING_PERIODS),
    idempotency_key: IdempotencyKey,
    promocode: Promocode.nullish(),
  }),
  response: z.object({ status: z.literal('ok'), change: z.enum(['upgrade', 'downgrade']) }),
});

/**
 * What a plan change would do, before it is confirmed (issue 18): an upgrade's charge now — the new
 * plan's price less the unused part of the current period, prorated by the second, then the discount —
 * or a downgrade's date. Nothing changes and nothing is charged.
 */
export const SubscriptionChangePreview = z
  .object({
    change: z.enum(['upgrade', 'downgrade']),
    currency: z.enum(CURRENCIES),
    /** The new plan's price for one period (cents). */
    new_price_cents: z.number().int(),
    /** What is left of the current period's payment, taken off (cents; 0 for a downgrade). */
    unused_credit_cents: z.number().int(),
    /** Charged now, after the discount (cents; 0 for a downgrade). */
    amount_due_cents: z.number().int(),
    /** When the change takes effect: now for an upgrade, the period end for a downgrade (unix seconds). */
    effective_at_unix: z.number().int(),
  })
  .meta({ id: 'SubscriptionChangePreview' });
export type SubscriptionChangePreview = z.infer<typeof SubscriptionChangePreview>;

export const previewSubscriptionChangeRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/preview-subscription-change',
  summary: 'What a plan change would charge now (prorated) or when it would take effect; changes nothing',
  tags: ['billing'],
  body: z.object({
    subscription_type: z.enum(['free', ...PAID_PLAN_IDS]),
    billing_period: z.enum(BILLING_PERIODS),
    promocode: Promocode.nullish(),
  }),
  response: SubscriptionChangePreview,
});

const IdempotentBody = z.object({ idempotency_key: IdempotencyKey.optional() }).optional();

export const cancelDowngradeRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/cancel-downgrade',
  summary: 'Keep the current plan: drop the scheduled downgrade',
  tags: ['billing'],
  body: IdempotentBody,
  response: Ok,
});

export const renewSubscriptionRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/renew-subscription',
  summary: 'Undo a cancellation before the period ends',
  tags: ['billing'],
  body: IdempotentBody,
  response: Ok,
});

export const cancelSubscriptionRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/cancel-subscription',
  summary: 'Cancel at the end of the period',
  tags: ['billing'],
  body: IdempotentBody,
  response: Ok,
});

export const DISCOUNT_CODES = ['special-offer-30', 'special-offer-50', 'special-offer-70'] as const;

export const applyDiscountRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/apply-discount',
  summary: 'Apply a discount code to the next invoice',
  tags: ['billing'],
  body: z.object({
    discount_code: z.string().trim().min(1).max(64),
    idempotency_key: IdempotencyKey.optional(),
  }),
  response: Ok,
});

export const verifyCardRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/verify-card',
  summary: 'Check the card on file with a zero-amount authorisation',
  tags: ['billing'],
  body: z.object({}).optional(),
  response: z.object({ status: z.literal('ok'), verified: z.literal(true) }),
});

export const PromoValidation = z.object({
  valid: z.boolean(),
  promocode: z.string(),
  amount_off: z.number().int().nullable(),
  percent_off: z.number().nullable(),
  duration_in_months: z.number().int().nullable(),
});
export type PromoValidation = z.infer<typeof PromoValidation>;

export const validatePromocodeRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/validate-promocode',
  summary: 'Check a promo code and answer its terms',
  tags: ['billing'],
  body: z.object({ promocode: z.string().trim().min(1).max(64) }),
  response: PromoValidation,
});

const ConnectBody = z.object({
  relative_redirect_path: z
    .string()
    .regex(/^\/[^/\\]/, 'a path on this site')
    .max(500),
});

export const createConnectAccountRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/create-connect-account',
  summary: 'Open a payouts account; answers the onboarding page’s URL',
  tags: ['billing'],
  body: ConnectBody,
  response: Url,
});

export const createConnectAccountManagementLinkRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/create-connect-account-management-link',
  summary: 'A link to manage the payouts account',
  tags: ['billing'],
  body: ConnectBody,
  response: Url,
});

/**
 * Stripe's webhook (only with BILLING_PROVIDER=stripe). The body is Stripe's event, read raw: its
 * `Stripe-Signature` header signs the exact bytes. An event already applied answers the same.
 */
export const stripeWebhookRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/stripe/webhook',
  summary: 'Stripe events (signed with Stripe-Signature), each applied once',
  tags: ['billing'],
  response: z.object({ received: z.literal(true) }),
});

// ---- The hosted pages of the built-in test-mode provider -----------------------------------------------

export const HostedSession = z
  .object({
    session_id: z.string(),
    kind: z.enum(['checkout', 'payment_method', 'portal', 'connect']),
    status: z.enum(['open', 'requires_action', 'complete', 'expired']),
    workspace_name: z.string(),
    plan_name: z.string().nullable(),
    billing_period: z.enum(BILLING_PERIODS).nullable(),
    currency: z.enum(CURRENCIES),
    amount_due_cents: z.number().int().nullable(),
    price_cents: z.number().int().nullable(),
    discount_description: z.string().nullable(),
    last_error: z.string().nullable(),
    payment_method: PaymentMethod.nullable(),
    invoices: z.array(Invoice),
    return_url: z.string(),
  })
  .meta({ id: 'HostedSession' });
export type HostedSession = z.infer<typeof HostedSession>;

const SessionParams = z.object({ session_id: z.string().min(1).max(100) });

export const getHostedSessionRoute = defineRoute({
  method: 'GET',
  path: '/v1/billing/sessions/:session_id',
  summary: 'A hosted checkout, payment-method, portal or payouts session (the id is its secret)',
  tags: ['billing'],
  params: SessionParams,
  response: HostedSession,
});

export const CardDetails = z.object({
  card_number: z.string().regex(/^[0-9 ]{12,23}$/, 'card number'),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(2000).max(2100),
  cvc: z.string().regex(/^[0-9]{3,4}$/, 'security code'),
  cardholder_name: z.string().trim().min(1).max(200),
});
export type CardDetails = z.infer<typeof CardDetails>;

const SessionOutcome = z.object({
  status: z.enum(['succeeded', 'requires_action']),
  redirect_url: z.string().nullable(),
});

export const submitCardRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/sessions/:session_id/card',
  summary: 'Pay (checkout) or save (payment method) with a card',
  tags: ['billing'],
  params: SessionParams,
  body: CardDetails,
  response: SessionOutcome,
});

export const authenticateSessionRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/sessions/:session_id/authenticate',
  summary: 'The second step a card may ask for: approve or fail the authentication',
  tags: ['billing'],
  params: SessionParams,
  body: z.object({ approve: z.boolean() }),
  response: SessionOutcome,
});

export const payInvoiceRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/sessions/:session_id/invoices/:invoice_id/pay',
  summary: 'Pay an open invoice from the portal with the card on file',
  tags: ['billing'],
  params: z.object({ session_id: z.string().min(1).max(100), invoice_id: z.string().min(1).max(100) }),
  response: z.object({ status: z.literal('ok') }),
});

export const createPortalCardSessionRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/sessions/:session_id/payment-method-session',
  summary: 'From the billing portal: a page to change the card (the portal session is the credential)',
  tags: ['billing'],
  params: SessionParams,
  body: z.object({}).optional(),
  response: Url,
});

export const completeConnectSessionRoute = defineRoute({
  method: 'POST',
  path: '/v1/billing/sessions/:session_id/connect',
  summary: 'Finish the payouts onboarding of the built-in provider',
  tags: ['billing'],
  params: SessionParams,
  body: z.object({}).optional(),
  response: SessionOutcome,
});

// ---- Usage ------------------------------------------------------------------------------------------

export const characterStatsRoute = defineRoute({
  method: 'GET',
  path: '/v1/usage/character-stats',
  summary: 'Credits used per interval, broken down by model, voice or nothing',
  tags: ['usage'],
  query: z.object({
    start_unix: z.coerce.number().int().min(0),
    end_unix: z.coerce.number().int().min(0),
    include_workspace_metrics: z.enum(['true', 'false']).optional(),
    breakdown_type: z.enum(['none', 'voice', 'model']).default('none'),
    aggregation_interval: z.enum(['hour', 'day', 'week', 'month', 'cumulative']).default('day'),
  }),
  response: z.object({ time: z.array(z.number().int()), usage: z.record(z.string(), z.array(z.number())) }),
});

/** Where the web app shows each hosted session of the built-in provider (the server answers these URLs). */
export const hostedSessionPaths = {
  checkout: '/billing/checkout/:session_id',
  payment_method: '/billing/payment-method/:session_id',
  portal: '/billing/portal/:session_id',
  connect: '/billing/connect/:session_id',
} as const satisfies Record<HostedSession['kind'], string>;

/** The test cards of the built-in provider, behaving like the common test cards of card processors. */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  requiresAuthentication: '4000002500003155',
  /** Saves fine, but every later charge is declined (renewal failures). */
  chargeFails: '4000000000000341',
} as const;
