import { describe, expect, it } from 'vitest';
import { addPeriod, discounted, firstInvoice, nextMonthlyReset, prorateUpgrade } from './billing.pricing';

describe('billing arithmetic', () => {
  it('adds calendar months and years, clamping the 31st', () => {
    expect(addPeriod(new Date('2026-01-31T10:00:00Z'), 'monthly_period').toISOString()).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(addPeriod(new Date('2026-03-15T00:00:00Z'), 'month').toISOString()).toBe(
      '2026-04-15T00:00:00.000Z',
    );
    expect(addPeriod(new Date('2028-02-29T00:00:00Z'), 'annual_period').toISOString()).toBe(
      '2029-02-28T00:00:00.000Z',
    );
    expect(addPeriod(new Date('2026-12-05T00:00:00Z'), 'monthly_period').toISOString()).toBe(
      '2027-01-05T00:00:00.000Z',
    );
  });

  it('counts monthly resets from the anchor, so the 31st does not drift to the 28th', () => {
    const anchor = new Date('2027-01-31T09:00:00Z');
    expect(nextMonthlyReset(anchor, new Date('2027-02-01T00:00:00Z')).toISOString()).toBe(
      '2027-02-28T09:00:00.000Z',
    );
    expect(nextMonthlyReset(anchor, new Date('2027-03-01T00:00:00Z')).toISOString()).toBe(
      '2027-03-31T09:00:00.000Z',
    );
    expect(nextMonthlyReset(anchor, new Date('2027-03-31T09:00:00Z')).toISOString()).toBe(
      '2027-04-30T09:00:00.000Z',
    );
  });

  it('discounts by percent or amount, never below zero', () => {
    expect(discounted(2200, { percentOff: 50, amountOff: null })).toBe(1100);
    expect(discounted(2200, { percentOff: null, amountOff: 500 })).toBe(1700);
    expect(discounted(500, { percentOff: null, amountOff: 2200 })).toBe(0);
    expect(discounted(999, null)).toBe(999);
  });

  it('the first invoice: offer, opt-out, promo instead of the offer, yearly without the offer', () => {
    const base = {
      plan: 'creator' as const,
      period: 'monthly_period' as const,
      currency: 'usd' as const,
      promo: null,
    };
    expect(
      firstInvoice({ ...base, firstMonthEligible: true, noDefaultPromocode: false }).amountDueCents,
    ).toBe(1100);
    expect(
      firstInvoice({ ...base, firstMonthEligible: false, noDefaultPromocode: false }).amountDueCents,
    ).toBe(2200);
    expect(firstInvoice({ ...base, firstMonthEligible: true, noDefaultPromocode: true }).amountDueCents).toBe(
      2200,
    );
    expect(
      firstInvoice({ ...base, period: 'annual_period', firstMonthEligible: true, noDefaultPromocode: false })
        .amountDueCents,
    ).toBe(22000);
    expect(
      firstInvoice({
        ...base,
        firstMonthEligible: true,
        noDefaultPromocode: false,
        promo: { code: 'P', percentOff: 10, amountOff: null, monthsLeft: 1 },
      }).amountDueCents,
    ).toBe(1980);
    expect(
      firstInvoice({ ...base, plan: 'starter', firstMonthEligible: true, noDefaultPromocode: false })
        .amountDueCents,
    ).toBe(100);
  });

  it('prorates an upgrade by the time left', () => {
    const start = new Date('2026-04-01T00:00:00Z');
    const end = new Date('2026-05-01T00:00:00Z');
    const half = new Date('2026-04-16T00:00:00Z');
    const result = prorateUpgrade({
      currentTier: 'creator',
      currentPeriod: 'monthly_period',
      periodStart: start,
      periodEnd: end,
      now: half,
      target: 'pro',
      targetPeriod: 'monthly_period',
      currency: 'usd',
    });
    expect(result).toEqual({ unusedCreditCents: 1100, newPriceCents: 9900, subtotalCents: 8800 });
  });
});
