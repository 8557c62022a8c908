import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyticsConsentOf,
  CCPA_OPT_OUT_STATES,
  CONSENT_REQUIRED_COUNTRIES,
  isInBipaRegion,
  isInCcpaOptOutState,
  NO_TERMS_AGREED,
  requiresAnalyticsConsent,
  termsAgreedToOf,
  UpdateConsentRequest,
} from './consent';

const randomCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

describe('analytics consent (accounts §4)', () => {
  it('denies analytics and ads in the listed regions until the person chooses', () => {
    for (const country of ['de', 'fr', 'nl', 'ie', 'no', 'is', 'li', 'gb', 'ch']) {
      expect(analyticsConsentOf(null, { country })).toEqual({
        state: 'undecided',
        analytics_storage: 'denied',
        ad_storage: 'denied',
      });
    }
  });

  it('grants elsewhere and where the location is unknown', () => {
    for (const geo of [{ country: 'us' }, { country: 'jp' }, { country: null }, null, undefined]) {
      expect(analyticsConsentOf(undefined, geo)).toEqual({
        state: 'not_applicable',
        analytics_storage: 'granted',
        ad_storage: 'granted',
      });
    }
  });

  it('a stored choice is the state, wherever the person is', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('granted', 'denied' as const),
        fc.option(fc.constantFrom(...CONSENT_REQUIRED_COUNTRIES, 'us', 'br')),
        (choice, country) => {
          expect(analyticsConsentOf(choice, { country })).toEqual({
            state: choice,
            analytics_storage: choice,
            ad_storage: choice,
          });
        },
      ),
    );
  });

  it('reads country codes in any case', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CONSENT_REQUIRED_COUNTRIES).chain(randomCase),
        (country) => requiresAnalyticsConsent({ country }) === true,
      ),
    );
  });
});

describe('CCPA opt-out states (accounts §9)', () => {
  it('are ca, ct, co, ut, va, or, mt and tx in the US, in any case', () => {
    expect([...CCPA_OPT_OUT_STATES]).toEqual(['ca', 'ct', 'co', 'ut', 'va', 'or', 'mt', 'tx']);
    fc.assert(
      fc.property(
        fc.constantFrom(...CCPA_OPT_OUT_STATES).chain(randomCase),
        randomCase('us'),
        (region, country) => isInCcpaOptOutState({ country, region }),
      ),
    );
    expect(isInCcpaOptOutState({ country: 'us', region: 'wa' })).toBe(false);
    expect(isInCcpaOptOutState({ country: 'ca', region: 'ca' })).toBe(false);
    expect(isInCcpaOptOutState(null)).toBe(false);
  });
});

describe('the Illinois region (accounts §4 biometric terms)', () => {
  it('is country us and region il, compared case-insensitively', () => {
    fc.assert(
      fc.property(randomCase('us'), randomCase('il'), (country, region) =>
        isInBipaRegion({ country, region }),
      ),
    );
    expect(isInBipaRegion({ country: 'us', region: 'in' })).toBe(false);
    expect(isInBipaRegion({ country: 'ca', region: 'il' })).toBe(false);
    expect(isInBipaRegion({ country: 'us' })).toBe(false);
    expect(isInBipaRegion(null)).toBe(false);
  });
});

describe('terms agreed to (accounts §3)', () => {
  it('maps the stored times to the *_unix fields, null where never agreed', () => {
    expect(termsAgreedToOf({ voice_design: 1_700_000_000, unknown: 5 })).toEqual({
      ...NO_TERMS_AGREED,
      voice_design_unix: 1_700_000_000,
    });
    expect(Object.values(NO_TERMS_AGREED).every((v) => v === null)).toBe(true);
  });
});

describe('the consent call', () => {
  it('takes a banner choice, optOutCCPA: true, or both, and nothing else', () => {
    const body = UpdateConsentRequest;
    expect(body.safeParse({ analytics_consent: 'granted' }).success).toBe(true);
    expect(body.safeParse({ optOutCCPA: true }).success).toBe(true);
    expect(body.safeParse({ analytics_consent: 'denied', optOutCCPA: true }).success).toBe(true);
    expect(body.safeParse({}).success).toBe(false);
    expect(body.safeParse({ optOutCCPA: false }).success).toBe(false);
    expect(body.safeParse({ analytics_consent: 'undecided' }).success).toBe(false);
  });
});
