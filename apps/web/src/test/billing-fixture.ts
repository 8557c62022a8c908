import {
  BillingOverview,
  type BillingOverview as BillingOverviewType,
  ExtendedSubscriptionResponse,
  type ExtendedSubscriptionResponse as ExtendedSubscriptionType,
  type HostedSession,
  HostedSession as HostedSessionSchema,
  type SubscriptionResponse,
} from '@parla/contracts';
import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { leaveAppTo } from '../lib/leave-app';

/** A new workspace's subscription, as `GET /v1/user` carries it: free, nothing used. */
export const freeSubscription: SubscriptionResponse = {
  tier: 'free',
  character_count: 0,
  character_limit: 10_000,
  max_character_limit_extension: null,
  max_credit_limit_extension: 0,
  can_extend_character_limit: false,
  allowed_to_extend_character_limit: false,
  next_character_count_reset_unix: null,
  voice_slots_used: 0,
  professional_voice_slots_used: 0,
  professional_voice_slots_used_in_workspace: 0,
  voice_limit: 3,
  max_voice_add_edits: 55,
  voice_add_edit_counter: 0,
  professional_voice_limit: 0,
  can_extend_voice_limit: false,
  can_use_instant_voice_cloning: false,
  can_use_professional_voice_cloning: false,
  currency: 'usd',
  current_overage: { amount: '0.00', currency: 'usd' },
  status: 'free',
  billing_period: null,
  character_refresh_period: 'monthly_period',
};

/** A contract-valid `GET /v1/user/subscription` answer (free plan unless overridden). */
export function makeSubscription(
  overrides: Partial<ExtendedSubscriptionType> = {},
): ExtendedSubscriptionType {
  return ExtendedSubscriptionResponse.parse({
    ...freeSubscription,
    next_character_count_reset_unix: 1_790_000_000,
    next_invoice: null,
    open_invoices: [],
    has_open_invoices: false,
    pending_change: null,
    ...overrides,
  });
}

/** A paid subscription: `tier` on `period`, active. */
export function makePaidSubscription(
  tier: ExtendedSubscriptionType['tier'],
  overrides: Partial<ExtendedSubscriptionType> = {},
): ExtendedSubscriptionType {
  return makeSubscription({
    tier,
    status: 'active',
    billing_period: 'monthly_period',
    character_limit: 500_000,
    ...overrides,
  });
}

/** A contract-valid `GET /v1/billing/overview` answer: the test provider, no card record. */
export function makeOverview(overrides: Partial<BillingOverviewType> = {}): BillingOverviewType {
  return BillingOverview.parse({
    provider: 'test',
    isolated_environment: false,
    payment_provider: 'none',
    can_change_payment_method: false,
    card_payment_provider: null,
    payment_method: null,
    first_month_offer_eligible: true,
    previously_subscribed_tiers: [],
    discount: null,
    applied_discount: null,
    invoices: [],
    max_seats: 1,
    ...overrides,
  });
}

/** A contract-valid hosted session: an open monthly Creator checkout. */
export function makeHostedSession(overrides: Partial<HostedSession> = {}): HostedSession {
  return HostedSessionSchema.parse({
    session_id: 's1',
    kind: 'checkout',
    status: 'open',
    workspace_name: 'Ada’s workspace',
    plan_name: 'Creator',
    billing_period: 'monthly_period',
    currency: 'usd',
    amount_due_cents: 2200,
    price_cents: 2200,
    discount_description: null,
    last_error: null,
    payment_method: null,
    invoices: [],
    return_url: 'http://localhost/app/subscription?checkout=canceled',
    ...overrides,
  });
}

/** A JSON answer, as the API sends it. */
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** An error answer in the API's shape. */
export const apiError = (status: number, code: string, message = 'x') =>
  json({ detail: { status: code, message } }, status);

/**
 * What a billing page test leaves behind, cleared: the rendered tree, stubbed globals, the mocked
 * `leaveAppTo` (the test file mocks `lib/leave-app`), the access token and local storage.
 */
export function cleanUpBillingTest(): void {
  cleanup();
  vi.unstubAllGlobals();
  vi.mocked(leaveAppTo).mockReset();
  setAccessToken(null);
  localStorage.clear();
}
