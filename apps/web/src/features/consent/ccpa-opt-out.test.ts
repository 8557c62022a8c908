import { afterEach, describe, expect, it } from 'vitest';
import {
  browserSendsGpc,
  ccpaOptOutCookie,
  isCcpaOptOutResolved,
  markCcpaOptOutResolved,
  shouldSendCcpaOptOut,
} from './ccpa-opt-out';

afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; the app writes this cookie the same way.
  document.cookie = `${ccpaOptOutCookie}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
});

describe('the CCPA opt-out trigger (accounts §4)', () => {
  it('fires for the stored flag or Global Privacy Control, in a listed state, while unresolved', () => {
    const base = { applies: true, storedOptOut: false, gpc: false, resolved: false };
    expect(shouldSendCcpaOptOut(base)).toBe(false);
    expect(shouldSendCcpaOptOut({ ...base, gpc: true })).toBe(true);
    expect(shouldSendCcpaOptOut({ ...base, storedOptOut: true })).toBe(true);
    expect(shouldSendCcpaOptOut({ ...base, gpc: true, resolved: true })).toBe(false);
    expect(shouldSendCcpaOptOut({ ...base, gpc: true, applies: false })).toBe(false);
  });

  it('reads navigator.globalPrivacyControl', () => {
    expect(browserSendsGpc({ globalPrivacyControl: true } as unknown as Navigator)).toBe(true);
    expect(browserSendsGpc({} as Navigator)).toBe(false);
    expect(browserSendsGpc(undefined)).toBe(false);
  });

  it('is resolved by a cookie kept 360 days that a sign-out leaves alone', () => {
    expect(isCcpaOptOutResolved()).toBe(false);
    markCcpaOptOutResolved();
    expect(isCcpaOptOutResolved()).toBe(true);
    expect(ccpaOptOutCookie.startsWith('xi_website_')).toBe(false);
  });
});
