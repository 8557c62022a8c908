import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  otpauthUrl,
  totpCode,
  totpStep,
} from './totp';

// RFC 6238 appendix B, SHA-1 rows: the key is "12345678901234567890", 8 digits.
const rfcKey = Buffer.from('12345678901234567890');
const rfcVectors: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP', () => {
  it('matches the RFC 6238 test vectors', () => {
    for (const [seconds, code] of rfcVectors) {
      expect(hotp(rfcKey, Math.floor(seconds / 30), 8)).toBe(code);
    }
  });

  it('matches RFC 4226 appendix D for HOTP', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583'];
    expected.forEach((code, counter) => {
      expect(hotp(rfcKey, counter)).toBe(code);
    });
  });

  it('round-trips base32 (RFC 4648 vectors and random bytes)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), (bytes) => {
        expect([...base32Decode(base32Encode(bytes))]).toEqual([...bytes]);
      }),
    );
  });

  it('accepts the current code and one step of drift, refuses others and replays', () => {
    const secret = newTotpSecret();
    const now = new Date('2026-11-22T10:00:10Z');
    const step = totpStep(now);
    expect(matchTotp(secret, totpCode(secret, step), now)).toBe(step);
    expect(matchTotp(secret, totpCode(secret, step - 1), now)).toBe(step - 1);
    expect(matchTotp(secret, totpCode(secret, step + 1), now)).toBe(step + 1);
    expect(matchTotp(secret, totpCode(secret, step - 2), now)).toBeUndefined();
    expect(matchTotp(secret, totpCode(secret, step), now, step)).toBeUndefined();
    expect(matchTotp(secret, '12345', now)).toBeUndefined();
  });

  it('writes the otpauth URL authenticators read', () => {
    const url = new URL(otpauthUrl('JBSWY3DPEHPK3PXP', 'ada@example.test'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Parla:ada@example.test');
    expect(url.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(url.searchParams.get('issuer')).toBe('Parla');
  });
});
