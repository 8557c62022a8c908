import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CurrentPlan,
  canChangePaymentMethod,
  canUseCharacterExtension,
  defaultPricePeriod,
  isBillingBlocked,
  isEligibleForFirstMonthOffer,
  isPlanButtonDisabled,
  OFFERED_PLANS,
  type PlanAction,
  type PlanButtonContext,
  paymentProviderOf,
  planAction,
  planActionKind,
  planActionLabels,
  planBadge,
  promoPlanForAmount,
  recommendedPlan,
  remainingCredits,
  type SubscriptionStatus,
} from './billing-rules';
import {
  PLAN_IDS,
  type PlanId,
  type PricePeriod,
  SUBSCRIPTION_TIERS,
  type SubscriptionTier,
  tierRank,
} from './plans';

const plan = (
  tier: SubscriptionTier,
  period: PricePeriod | null,
  extra: Partial<CurrentPlan> = {},
): CurrentPlan => ({
  tier,
  period,
  pendingCancellation: false,
  pendingDowngrade: null,
  ...extra,
});

describe('plan action (accounts §4 rules 1–6)', () => {
  const rows: [string, { tier: PlanId; period: PricePeriod }, CurrentPlan, PlanAction][] = [
    // 1. same tier and period, cancellation pending → renew
    [
      '1 renew',
      { tier: 'creator', period: 'monthly' },
      plan('creator', 'monthly', { pendingCancellation: true }),
      'renewSubscription',
    ],
    [
      '1 renew yearly',
      { tier: 'pro', period: 'yearly' },
      plan('pro', 'yearly', { pendingCancellation: true }),
      'renewSubscription',
    ],
    // 2. same tier on free or trial → none
    ['2 free', { tier: 'free', period: 'monthly' }, plan('free', null), 'none'],
    ['2 free yearly toggle', { tier: 'free', period: 'yearly' }, plan('free', null), 'none'],
    // 3. same tier and period otherwise → cancel
    ['3 cancel', { tier: 'creator', period: 'monthly' }, plan('creator', 'monthly'), 'cancelSubscription'],
    [
      '3 cancel yearly',
      { tier: 'scale_2024_08_10', period: 'yearly' },
      plan('scale_2024_08_10', 'yearly'),
      'cancelSubscription',
    ],
    // 4. the pending downgrade's tier and period → cancel downgrade
    [
      '4 cancel downgrade',
      { tier: 'starter', period: 'monthly' },
      plan('pro', 'monthly', { pendingDowngrade: { tier: 'starter', period: 'monthly' } }),
      'cancelDowngrade',
    ],
    // 5. current free or trial → create
    ['5 create from free', { tier: 'creator', period: 'monthly' }, plan('free', null), 'create'],
    ['5 create yearly', { tier: 'pro', period: 'yearly' }, plan('free', null), 'create'],
    ['5 create from trial', { tier: 'starter', period: 'monthly' }, plan('trial', null), 'create'],
    // 6. downgrade: lower tier; same-or-lower at the same period; annual → monthly; else upgrade
    ['6 lower tier', { tier: 'starter', period: 'yearly' }, plan('pro', 'monthly'), 'downgrade'],
    ['6 lower tier to free', { tier: 'free', period: 'monthly' }, plan('creator', 'monthly'), 'downgrade'],
    ['6 annual to monthly same tier', { tier: 'pro', period: 'monthly' }, plan('pro', 'yearly'), 'downgrade'],
    [
      '6 annual to monthly higher tier',
      { tier: 'growing_business', period: 'monthly' },
      plan('pro', 'yearly'),
      'downgrade',
    ],
    ['6 higher tier same period', { tier: 'pro', period: 'monthly' }, plan('creator', 'monthly'), 'upgrade'],
    [
      '6 monthly to annual same tier',
      { tier: 'creator', period: 'yearly' },
      plan('creator', 'monthly'),
      'upgrade',
    ],
    [
      '6 higher tier to annual',
      { tier: 'scale_2024_08_10', period: 'yearly' },
      plan('starter', 'monthly'),
      'upgrade',
    ],
    [
      '6 other tier than the pending downgrade',
      { tier: 'creator', period: 'monthly' },
      plan('pro', 'monthly', { pendingDowngrade: { tier: 'starter', period: 'monthly' } }),
      'downgrade',
    ],
  ];
  it.each(rows)('%s', (_name, target, current, expected) => {
    expect(planAction(target, current)).toBe(expected);
  });

  it('labels and kinds follow accounts §4', () => {
    expect(planActionLabels).toMatchObject({
      renewSubscription: 'Do Not Cancel',
      none: 'Subscribed',
      cancelSubscription: 'Cancel Subscription',
      cancelDowngrade: 'Cancel Downgrade',
      create: 'Subscribe',
    });
    expect(planActionKind('create')).toBe('checkout');
    expect(planActionKind('renewSubscription')).toBe('direct');
    expect(planActionKind('cancelDowngrade')).toBe('direct');
    for (const action of ['cancelSubscription', 'downgrade', 'upgrade'] as const)
      expect(planActionKind(action)).toBe('dialog');
  });

  const tiers = fc.constantFrom(...SUBSCRIPTION_TIERS);
  const periods = fc.constantFrom<PricePeriod>('monthly', 'yearly');
  const targets = fc.record({ tier: fc.constantFrom(...PLAN_IDS), period: periods });
  const currents = fc.record({
    tier: tiers,
    period: fc.option(periods, { nil: null }),
    pendingCancellation: fc.boolean(),
    pendingDowngrade: fc.option(fc.record({ tier: tiers, period: periods }), { nil: null }),
  });

  it('property: from free or trial every other plan is a checkout, never a change', () => {
    fc.assert(
      fc.property(targets, fc.constantFrom<SubscriptionTier>('free', 'trial'), (target, tier) => {
        const action = planAction(target, plan(tier, null));
        if (target.tier === tier) expect(action).toBe('none');
        else expect(action).toBe('create');
      }),
    );
  });

  it('property: between two different paid plans, exactly one direction is an upgrade', () => {
    const paid = fc.constantFrom(
      'starter',
      'creator',
      'pro',
      'growing_business',
      'scale_2024_08_10' as const,
    );
    fc.assert(
      fc.property(paid, periods, paid, periods, (aTier, aPeriod, bTier, bPeriod) => {
        fc.pre(aTier !== bTier || aPeriod !== bPeriod);
        const aToB = planAction({ tier: bTier, period: bPeriod }, plan(aTier, aPeriod));
        const bToA = planAction({ tier: aTier, period: aPeriod }, plan(bTier, bPeriod));
        expect([aToB, bToA].filter((a) => a === 'upgrade').length).toBeLessThanOrEqual(1);
        // A higher tier at the same or a longer period is always an upgrade.
        if (tierRank(bTier) > tierRank(aTier) && !(aPeriod === 'yearly' && bPeriod === 'monthly')) {
          expect(aToB).toBe('upgrade');
        }
        if (tierRank(bTier) < tierRank(aTier)) expect(aToB).toBe('downgrade');
      }),
    );
  });

  it('property: the action is always one of the seven and depends on nothing but its inputs', () => {
    fc.assert(
      fc.property(targets, currents, (target, current) => {
        const action = planAction(target, current);
        expect(Object.keys(planActionLabels)).toContain(action);
        expect(planAction(target, current)).toBe(action);
        if (current.pendingCancellation && target.tier === current.tier && target.period === current.period) {
          expect(action).toBe('renewSubscription');
        }
      }),
    );
  });
});

describe('button disabling (accounts §4)', () => {
  const context = (extra: Partial<PlanButtonContext> = {}): PlanButtonContext => ({
    loggedIn: true,
    isolatedEnvironment: false,
    status: 'active',
    currentTier: 'creator',
    ...extra,
  });
  const monthly = (tier: PlanId) => ({ tier, period: 'monthly' as const });
  const rows: [string, PlanAction, PlanId, PlanButtonContext, boolean][] = [
    [
      'logged out',
      'create',
      'creator',
      context({ loggedIn: false, currentTier: 'free', status: 'free' }),
      true,
    ],
    ['isolated environment, paid plan', 'upgrade', 'pro', context({ isolatedEnvironment: true }), true],
    ['isolated environment, free plan', 'downgrade', 'free', context({ isolatedEnvironment: true }), false],
    [
      'create while incomplete',
      'create',
      'creator',
      context({ currentTier: 'free', status: 'incomplete' }),
      true,
    ],
    ['create from free', 'create', 'creator', context({ currentTier: 'free', status: 'free' }), false],
    ['create from trial', 'create', 'creator', context({ currentTier: 'trial', status: 'active' }), false],
    ['create on a paid tier', 'create', 'creator', context({ currentTier: 'pro' }), true],
    ['upgrade while active', 'upgrade', 'pro', context(), false],
    ['upgrade while past due', 'upgrade', 'pro', context({ status: 'past_due' }), true],
    ['upgrade while incomplete', 'upgrade', 'pro', context({ status: 'incomplete' }), true],
    ['cancel on creator', 'cancelSubscription', 'creator', context(), false],
    [
      'cancel on enterprise',
      'cancelSubscription',
      'enterprise',
      context({ currentTier: 'enterprise' }),
      true,
    ],
    ['downgrade while past due', 'downgrade', 'starter', context({ status: 'past_due' }), false],
    ['renew', 'renewSubscription', 'creator', context(), false],
    ['subscribed (nothing to do)', 'none', 'free', context({ currentTier: 'free', status: 'free' }), true],
  ];
  it.each(rows)('%s', (_name, action, tier, ctx, disabled) => {
    expect(isPlanButtonDisabled(action, monthly(tier), ctx)).toBe(disabled);
  });

  it('property: logged out disables every button', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(planActionLabels) as PlanAction[])),
        fc.constantFrom(...PLAN_IDS),
        fc.constantFrom<SubscriptionStatus>(
          'active',
          'free',
          'incomplete',
          'past_due',
          'free_disabled',
          'trialing',
        ),
        (action, tier, status) => {
          expect(isPlanButtonDisabled(action, monthly(tier), context({ loggedIn: false, status }))).toBe(
            true,
          );
        },
      ),
    );
  });
});

describe('badges, promo amounts, recommended offer, period, provider', () => {
  it('badges the plan that will be canceled or downgraded', () => {
    expect(
      planBadge({ tier: 'pro', period: 'monthly' }, plan('pro', 'monthly', { pendingCancellation: true })),
    ).toBe('Will be canceled');
    expect(
      planBadge(
        { tier: 'pro', period: 'monthly' },
        plan('pro', 'monthly', { pendingDowngrade: { tier: 'starter', period: 'monthly' } }),
      ),
    ).toBe('Will be downgraded');
    expect(planBadge({ tier: 'starter', period: 'monthly' }, plan('pro', 'monthly'))).toBeNull();
  });

  it.each([
    [500, 'starter'],
    [2200, 'creator'],
    [9900, 'pro'],
    [10000, 'pro'],
    [33000, 'growing_business'],
    [132000, 'scale_2024_08_10'],
    [1234, null],
    [null, null],
  ] as const)('promo amount %s → %s', (amount, expected) => {
    expect(promoPlanForAmount(amount)).toBe(expected);
  });

  it.each([
    ['free', 'creator'],
    ['starter', 'creator'],
    ['creator', 'pro'],
    ['pro', 'growing_business'],
    ['growing_business', 'scale_2024_08_10'],
    ['scale_2024_08_10', null],
    ['enterprise', null],
    ['trial', null],
  ] as const)('recommended offer from %s is %s', (tier, expected) => {
    expect(recommendedPlan(tier)).toBe(expected);
  });

  it('property: the recommended offer is always a higher offered plan', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SUBSCRIPTION_TIERS), (tier) => {
        const recommended = recommendedPlan(tier);
        if (recommended) {
          expect(OFFERED_PLANS).toContain(recommended);
          expect(tierRank(recommended)).toBeGreaterThan(tierRank(tier));
        }
      }),
    );
  });

  it('billing period default, payment provider choice, changing the card', () => {
    expect(defaultPricePeriod('annual_period')).toBe('yearly');
    expect(defaultPricePeriod('monthly_period')).toBe('monthly');
    expect(defaultPricePeriod(null)).toBe('monthly');
    const none = { cardPaymentProvider: null, gcpMarketplacePaymentDetails: null, consolidatedBilling: null };
    expect(paymentProviderOf(none)).toBe('none');
    expect(paymentProviderOf({ ...none, consolidatedBilling: { charge_workspace_id: 'w' } })).toBe(
      'consolidated',
    );
    expect(paymentProviderOf({ ...none, consolidatedBilling: {}, gcpMarketplacePaymentDetails: {} })).toBe(
      'marketplace',
    );
    expect(
      paymentProviderOf({
        cardPaymentProvider: 'test',
        gcpMarketplacePaymentDetails: {},
        consolidatedBilling: {},
      }),
    ).toBe('card');
    expect(canChangePaymentMethod('card', 'creator', 'past_due')).toBe(true);
    expect(canChangePaymentMethod('card', 'free', 'free')).toBe(false);
    expect(canChangePaymentMethod('card', 'free', 'incomplete')).toBe(true);
    expect(canChangePaymentMethod('card', 'free', 'free_disabled')).toBe(true);
    expect(canChangePaymentMethod('marketplace', 'creator', 'active')).toBe(false);
    expect(canChangePaymentMethod('card', 'enterprise', 'active')).toBe(false);
  });

  it('payment trouble blocks, except on enterprise; the extension needs an active subscription', () => {
    expect(isBillingBlocked('creator', 'past_due')).toBe(true);
    expect(isBillingBlocked('free', 'incomplete')).toBe(true);
    expect(isBillingBlocked('free', 'free_disabled')).toBe(true);
    expect(isBillingBlocked('enterprise', 'past_due')).toBe(false);
    expect(isBillingBlocked('creator', 'active')).toBe(false);
    expect(canUseCharacterExtension({ tier: 'pro', status: 'active', allowedToExtend: true })).toBe(true);
    expect(canUseCharacterExtension({ tier: 'pro', status: 'past_due', allowedToExtend: true })).toBe(false);
    expect(canUseCharacterExtension({ tier: 'pro', status: 'active', allowedToExtend: false })).toBe(false);
    expect(canUseCharacterExtension({ tier: 'enterprise', status: 'past_due', allowedToExtend: false })).toBe(
      true,
    );
  });

  it('first-month offers only for users never on a paid tier; remaining credits', () => {
    expect(isEligibleForFirstMonthOffer([])).toBe(true);
    expect(isEligibleForFirstMonthOffer(['free', 'trial'])).toBe(true);
    expect(isEligibleForFirstMonthOffer(['starter'])).toBe(false);
    expect(remainingCredits(-1, 5)).toBe(-1);
    expect(remainingCredits(10_000, 2_500)).toBe(7_500);
    expect(remainingCredits(10_000, 12_000)).toBe(0);
  });
});
