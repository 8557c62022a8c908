import { describe, expect, it } from 'vitest';
import { planOffers } from './billing';
import { formatPrice, PLAN_NUMBERS, tierLimits } from './plans';

describe('plan catalogue (accounts §9)', () => {
  const usd = planOffers('usd', { firstMonthOfferEligible: true });
  const eur = planOffers('eur', { firstMonthOfferEligible: true });
  const byId = (offers: typeof usd, id: string) => offers.find((o) => o.plan_id === id);

  it.each([
    // plan, monthly usd, monthly eur, annual usd, annual eur, yearly per month usd, credits, minutes
    ['starter', 5, 4.75, 50, 47.5, 4.17, 30_000, 30],
    ['creator', 22, 21, 220, 210, 18.33, 100_000, 100],
    ['pro', 99, 94, 990, 940, 82.5, 500_000, 600],
    ['growing_business', 330, 314, 3300, 3140, 275, 2_000_000, 2400],
    ['scale_2024_08_10', 1320, 1320, 13200, 13200, 1100, 11_000_000, 13200],
  ] as const)('%s', (id, mUsd, mEur, aUsd, aEur, perMonth, credits, minutes) => {
    const u = byId(usd, id);
    const e = byId(eur, id);
    expect(u?.pricing.monthly?.price).toBe(mUsd);
    expect(e?.pricing.monthly?.price).toBe(mEur);
    expect(u?.pricing.yearly?.price).toBe(aUsd);
    expect(e?.pricing.yearly?.price).toBe(aEur);
    expect(u?.pricing.yearly?.discounted_price).toBe(perMonth);
    expect(u?.character_limit).toBe(credits);
    expect(u?.audio_limit_minutes).toBe(minutes);
  });

  it('free, enterprise, names, most popular and the first-month offers', () => {
    expect(byId(usd, 'free')).toMatchObject({
      character_limit: 10_000,
      audio_limit_minutes: 10,
      pricing: { yearly: null },
    });
    expect(byId(usd, 'enterprise')).toMatchObject({
      enterprise: true,
      character_limit: -1,
      pricing: { monthly: null, yearly: null },
    });
    expect(usd.map((o) => o.name)).toEqual([
      'Free',
      'Starter',
      'Creator',
      'Pro',
      'Scale',
      'Business',
      'Enterprise',
    ]);
    expect(usd.filter((o) => o.most_popular).map((o) => o.plan_id)).toEqual(['creator']);
    expect(byId(usd, 'creator')?.pricing.monthly).toMatchObject({
      discounted_price: 11,
      discount_message: 'First month 50% off',
    });
    expect(byId(usd, 'starter')?.pricing.monthly?.discounted_price).toBe(1);
    expect(byId(usd, 'creator')?.usage.audio_limit_minutes).toBe(120);
    const ineligible = planOffers('usd', { firstMonthOfferEligible: false });
    expect(byId(ineligible, 'creator')?.pricing.monthly).toMatchObject({
      discounted_price: null,
      discount_message: null,
    });
  });

  it('the per-plan extras', () => {
    expect(usd.map((o) => o.usage.custom_voices_limit).slice(0, 6)).toEqual([3, 10, 30, 160, 660, 660]);
    expect(usd.map((o) => o.speech.concurrency).slice(0, 6)).toEqual([2, 3, 5, 10, 15, 15]);
    expect(usd.map((o) => o.studio.projects).slice(0, 6)).toEqual([3, 20, 1000, 3000, 20000, 20000]);
    expect(usd.map((o) => o.sound_effects.seconds).slice(0, 6)).toEqual([
      250, 750, 2500, 12500, 50000, 275000,
    ]);
    expect(usd.map((o) => o.conversational_ai.minutes).slice(0, 6)).toEqual([15, 50, 250, 1100, 3600, 13750]);
    expect(usd.map((o) => o.conversational_ai.concurrency).slice(0, 6)).toEqual([4, 6, 10, 20, 30, 30]);
    expect(usd.map((o) => o.usage.additional_characters_cost).slice(2, 6)).toEqual([0.3, 0.24, 0.18, 0.1]);
    expect(byId(usd, 'scale_2024_08_10')?.conversational_ai.extra_minute_cost).toEqual({
      monthly: 0.096,
      annual: 0.08,
    });
    expect(PLAN_NUMBERS.creator.billingThresholdCents).toEqual({ usd: 4400, eur: 4200 });
    expect(PLAN_NUMBERS.pro.billingThresholdCents).toEqual({ usd: 19800, eur: 18800 });
    expect(PLAN_NUMBERS.scale_2024_08_10.billingThresholdCents).toEqual({ usd: 66000, eur: 62800 });
    expect(Object.values(tierLimits).map((l) => l.maxSeats)).toEqual([1, 1, 1, 1, 3, 5, 25, 25]);
    expect(byId(usd, 'free')?.features.instant_voice_cloning).toBe(false);
    expect(byId(usd, 'starter')?.features).toMatchObject({
      instant_voice_cloning: true,
      commercial_license: true,
    });
  });

  it('prices show $ for usd and € otherwise', () => {
    expect(formatPrice(22, 'usd')).toBe('$22');
    expect(formatPrice(4.75, 'eur')).toBe('€4.75');
    expect(formatPrice(1320, 'usd')).toBe('$1,320');
  });
});
