import { planOffers } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { makeOverview, makePaidSubscription, makeSubscription } from '../../test/billing-fixture';
import { planViewerOf } from './components/plan-picker';
import { offerPrice, planCardState } from './plan-card-rules';

const usd = planOffers('usd', { firstMonthOfferEligible: true });
const offer = (planId: string) => {
  const found = usd.find((o) => o.plan_id === planId);
  if (!found) throw new Error(planId);
  return found;
};
const buttonOf = (state: ReturnType<typeof planCardState>) =>
  state.button.kind === 'action'
    ? `${state.button.label}${state.button.disabled ? ' (disabled)' : ''}`
    : `${state.button.kind}: ${state.button.label}`;

describe('planCardState (accounts §4)', () => {
  it('sends a visitor to sign-up and shows "Contact sales" on enterprise', () => {
    const viewer = planViewerOf(null, undefined);
    expect(buttonOf(planCardState(offer('free'), 'monthly', viewer))).toBe('signUp: Sign up');
    expect(buttonOf(planCardState(offer('creator'), 'yearly', viewer))).toBe('signUp: Subscribe');
    expect(buttonOf(planCardState(offer('enterprise'), 'monthly', viewer))).toBe(
      'contactSales: Contact sales',
    );
  });

  it('free: "Subscribed" on free, "Subscribe" elsewhere, disabled while a payment is incomplete', () => {
    const free = planViewerOf(makeSubscription(), makeOverview());
    const free1 = planCardState(offer('free'), 'monthly', free);
    expect([buttonOf(free1), free1.isCurrent]).toEqual(['Subscribed (disabled)', true]);
    expect(buttonOf(planCardState(offer('free'), 'yearly', free))).toBe('Subscribed (disabled)');
    expect(buttonOf(planCardState(offer('pro'), 'yearly', free))).toBe('Subscribe');
    const incomplete = planViewerOf(makeSubscription({ status: 'incomplete' }), makeOverview());
    expect(buttonOf(planCardState(offer('creator'), 'monthly', incomplete))).toBe('Subscribe (disabled)');
  });

  it('trial: every paid plan is a checkout, but the free card has none', () => {
    const trial = planViewerOf(makeSubscription({ tier: 'trial', status: 'trialing' }), makeOverview());
    expect(buttonOf(planCardState(offer('starter'), 'monthly', trial))).toBe('Subscribe');
    expect(buttonOf(planCardState(offer('free'), 'monthly', trial))).toBe('Subscribe (disabled)');
  });

  it('pro monthly: cancel on its own card, downgrade below, upgrade above and to yearly', () => {
    const pro = planViewerOf(makePaidSubscription('pro'), makeOverview());
    const own = planCardState(offer('pro'), 'monthly', pro);
    expect([buttonOf(own), own.isCurrent, own.badge]).toEqual(['Cancel Subscription', true, null]);
    expect(buttonOf(planCardState(offer('creator'), 'monthly', pro))).toBe('Downgrade');
    expect(buttonOf(planCardState(offer('free'), 'monthly', pro))).toBe('Downgrade');
    expect(buttonOf(planCardState(offer('pro'), 'yearly', pro))).toBe('Upgrade');
    expect(buttonOf(planCardState(offer('growing_business'), 'monthly', pro))).toBe('Upgrade');
  });

  it('pro yearly: the monthly switch is a downgrade', () => {
    const pro = planViewerOf(
      makePaidSubscription('pro', { billing_period: 'annual_period' }),
      makeOverview(),
    );
    expect(buttonOf(planCardState(offer('pro'), 'monthly', pro))).toBe('Downgrade');
    expect(buttonOf(planCardState(offer('growing_business'), 'monthly', pro))).toBe('Downgrade');
  });

  it('past due: upgrades wait for the payment, downgrades do not', () => {
    const pastDue = planViewerOf(makePaidSubscription('pro', { status: 'past_due' }), makeOverview());
    expect(buttonOf(planCardState(offer('growing_business'), 'monthly', pastDue))).toBe('Upgrade (disabled)');
    expect(buttonOf(planCardState(offer('creator'), 'monthly', pastDue))).toBe('Downgrade');
  });

  it('a cancellation at the period end: "Do Not Cancel" and "Will be canceled"', () => {
    const overview = makeOverview({
      payment_provider: 'card',
      card_payment_provider: {
        current_period_end: 1_790_000_000,
        schedule: null,
        cancel_at_period_end: true,
      },
    });
    const canceled = planViewerOf(makePaidSubscription('creator'), overview);
    const own = planCardState(offer('creator'), 'monthly', canceled);
    expect([buttonOf(own), own.badge]).toEqual(['Do Not Cancel', 'Will be canceled']);
  });

  it('a scheduled downgrade: "Will be downgraded" on the plan, "Cancel Downgrade" on its target', () => {
    const overview = makeOverview({
      payment_provider: 'card',
      card_payment_provider: {
        current_period_end: 1_790_000_000,
        schedule: {
          metadata: { type: 'downgrade', downgrade_to: 'creator', downgrade_to_period: 'monthly_period' },
        },
        cancel_at_period_end: false,
      },
    });
    const viewer = planViewerOf(makePaidSubscription('pro'), overview);
    expect(planCardState(offer('pro'), 'monthly', viewer).badge).toBe('Will be downgraded');
    expect(buttonOf(planCardState(offer('creator'), 'monthly', viewer))).toBe('Cancel Downgrade');
    expect(buttonOf(planCardState(offer('creator'), 'yearly', viewer))).toBe('Downgrade');
  });

  it('reads the pending change of the subscription when the overview has no provider record', () => {
    const subscription = makePaidSubscription('pro', {
      pending_change: {
        kind: 'change',
        next_tier: 'starter',
        next_billing_period: 'monthly_period',
        timestamp_seconds: 1_790_000_000,
      },
    });
    const viewer = planViewerOf(subscription, makeOverview());
    expect(buttonOf(planCardState(offer('starter'), 'monthly', viewer))).toBe('Cancel Downgrade');
  });

  it('an isolated environment disables every paid plan', () => {
    const viewer = planViewerOf(
      makeSubscription(),
      makeOverview({ isolated_environment: true, provider: 'none' }),
    );
    expect(buttonOf(planCardState(offer('starter'), 'monthly', viewer))).toBe('Subscribe (disabled)');
  });

  it('enterprise: "Subscribed" for a workspace on it', () => {
    const viewer = planViewerOf(makePaidSubscription('enterprise', { character_limit: -1 }), makeOverview());
    const state = planCardState(offer('enterprise'), 'monthly', viewer);
    expect([buttonOf(state), state.isCurrent]).toEqual(['Subscribed (disabled)', true]);
  });
});

describe('offerPrice (accounts §9)', () => {
  it('monthly: the first-month price, the regular one struck through, and the offer message', () => {
    expect(offerPrice(offer('creator'), 'monthly')).toEqual({
      amount: '$11',
      original: '$22',
      unit: '/month',
      note: 'Then $22/month',
      discountMessage: 'First month 50% off',
    });
    expect(offerPrice(offer('pro'), 'monthly')).toMatchObject({ amount: '$99', original: null, note: null });
  });

  it('yearly: per month of the annual total, the monthly price struck through, "2 months free"', () => {
    expect(offerPrice(offer('creator'), 'yearly')).toEqual({
      amount: '$18.33',
      original: '$22',
      unit: '/month',
      note: 'Billed $220 yearly',
      discountMessage: '2 months free',
    });
  });

  it('free has no yearly price; enterprise is custom; euro prices use €', () => {
    expect(offerPrice(offer('free'), 'yearly')).toMatchObject({ amount: '$0', unit: '/month', note: null });
    expect(offerPrice(offer('enterprise'), 'monthly').amount).toBe('Custom');
    const eur = planOffers('eur', { firstMonthOfferEligible: false }).find((o) => o.plan_id === 'pro');
    expect(eur && offerPrice(eur, 'monthly').amount).toBe('€94');
  });
});
