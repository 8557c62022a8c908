import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error';
import {
  continueTarget,
  isAccountActionMode,
  parseAccountActionParams,
  toEmailActionError,
} from './account-action';

const origin = 'https://parla.example';
const params = (query: string) => parseAccountActionParams(new URLSearchParams(query));

describe('account-action landing page rules (accounts §2, §4, §5)', () => {
  it('reads the code from verificationCode or oobCode, and defaults lang to en', () => {
    expect(params('mode=resetPassword&oobCode=abc')).toMatchObject({
      mode: 'resetPassword',
      code: 'abc',
      lang: 'en',
    });
    expect(params('mode=verifyEmail&verificationCode=xyz&lang=de')).toMatchObject({
      code: 'xyz',
      lang: 'de',
    });
  });

  it('knows the five modes and nothing else', () => {
    for (const mode of [
      'optOutOfUpdates',
      'resetPassword',
      'recoverEmail',
      'verifyEmail',
      'verifySignInRequest',
    ]) {
      expect(isAccountActionMode(mode)).toBe(true);
    }
    expect(isAccountActionMode('signIn')).toBe(false);
    expect(isAccountActionMode(null)).toBe(false);
  });

  it('maps failures to invalidActionCode, tooManyAttempts or unknownError', () => {
    const http = (status: number, errorType: string) => new HttpError({ status, message: 'x', errorType });
    expect(toEmailActionError(http(400, 'invalid_action_code'))).toBe('invalidActionCode');
    expect(toEmailActionError(http(429, 'rate_limited'))).toBe('tooManyAttempts');
    expect(toEmailActionError(http(500, 'internal_error'))).toBe('unknownError');
    expect(toEmailActionError(new Error('boom'))).toBe('unknownError');
  });

  it('continues to the continueUrl with internalCode and newUser appended', () => {
    expect(continueTarget(params('continueUrl=%2Fapp%2Fsign-in&internalCode=c1&newUser=true'), origin)).toBe(
      '/app/sign-in?internalCode=c1&newUser=true',
    );
    expect(continueTarget(params(`continueUrl=${encodeURIComponent(`${origin}/app/x?a=1`)}`), origin)).toBe(
      '/app/x?a=1',
    );
    expect(continueTarget(params(''), origin)).toBeUndefined();
  });

  it('never leaves the origin, whatever the continueUrl', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.constantFrom(
            '//evil.test',
            '/\\evil.test',
            'https://evil.test/',
            'javascript:alert(1)',
            '\t//evil.test',
            'https:evil.test',
          ),
        ),
        (raw) => {
          const target = continueTarget(params(`continueUrl=${encodeURIComponent(raw)}`), origin);
          if (target !== undefined) {
            expect(target.startsWith('/')).toBe(true);
            expect(new URL(target, origin).origin).toBe(origin);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
