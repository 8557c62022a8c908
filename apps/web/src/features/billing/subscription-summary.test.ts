import { describe, expect, it } from 'vitest';
import { makeOverview, makePaidSubscription } from '../../test/billing-fixture';
import { currentPlanOf, pendingChangeFrom } from './current-plan';
import { creditsSummary, discountSummary, discountText, pendingChangeText } from './subscription-summary';

describe('subscription summary', () => {
  it('credits: used, limit and remaining; -1 is unlimited (accounts §9)', () => {
    expect(creditsSummary(2_500, 10_000)).toEqual({
      used: '2,500',
      limit: '10,000',
      remaining: '7,500',
      percentUsed: 25,
    });
    expect(creditsSummary(12_000, 10_000)).toMatchObject({ remaining: '0', percentUsed: 100 });
    expect(creditsSummary(5, -1)).toEqual({
      used: '5',
      limit: 'Unlimited',
      remaining: 'Unlimited',
      percentUsed: null,
    });
  });

  it('says what the pending change is and when', () => {
    const at = Date.UTC(2026, 11, 24, 12) / 1000;
    expect(pendingChangeText({ kind: 'cancellation', timestamp_seconds: at }, { timeZone: 'UTC' })).toBe(
      'Your subscription ends on Dec 24, 2026, 12:00 PM; then the workspace moves to the Free plan.',
    );
    expect(
      pendingChangeText(
        {
          kind: 'change',
          next_tier: 'growing_business',
          next_billing_period: 'annual_period',
          timestamp_seconds: at,
        },
        { timeZone: 'UTC' },
      ),
    ).toBe('Your plan changes to Scale (yearly) on Dec 24, 2026, 12:00 PM.');
    expect(pendingChangeText(null)).toBeNull();
  });

  it('falls back to the provider record for the pending change and the plan rules', () => {
    const overview = makeOverview({
      card_payment_provider: {
        current_period_end: 1_800_000_000,
        schedule: null,
        cancel_at_period_end: true,
      },
    });
    const subscription = makePaidSubscription('creator', { billing_period: 'annual_period' });
    expect(pendingChangeFrom(subscription, overview)).toEqual({
      kind: 'cancellation',
      timestamp_seconds: 1_800_000_000,
    });
    expect(currentPlanOf(subscription, overview)).toEqual({
      tier: 'creator',
      period: 'yearly',
      pendingCancellation: true,
      pendingDowngrade: null,
    });
  });

  it('names a discount with what is left of it', () => {
    const discount = { code: 'special-offer-30', percent_off: 30, amount_off: null, months_left: 2 };
    expect(discountText(discount, 'usd')).toBe('special-offer-30: 30% off, 2 months left');
    expect(discountText({ ...discount, percent_off: null, amount_off: 500, months_left: 1 }, 'eur')).toBe(
      'special-offer-30: €5 off, 1 month left',
    );
  });

  it('says the discount a period was paid with, and what is left of one (issue 26 item 7)', () => {
    const applied = {
      description: 'First month 50% off',
      amount_off_cents: 1100,
      invoice_id: 'in_1',
      period_end_unix: 1,
    };
    const running = { code: 'SPRING', percent_off: 20, amount_off: null, months_left: 2 };
    expect(discountSummary({ applied_discount: null, discount: null }, 'usd', true)).toBeNull();
    expect(discountSummary({ applied_discount: applied, discount: null }, 'usd', true)).toEqual({
      applied: 'First month 50% off (saved $11 this period)',
      next: 'The next invoice is at full price.',
    });
    // A cancelled plan has no next invoice to speak of.
    expect(discountSummary({ applied_discount: applied, discount: null }, 'usd', false)?.next).toBeNull();
    expect(discountSummary({ applied_discount: null, discount: running }, 'eur', true)).toEqual({
      applied: null,
      next: 'On the next invoices: SPRING: 20% off, 2 months left',
    });
  });
});
