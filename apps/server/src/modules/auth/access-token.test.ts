import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken, verifyAccessToken } from './access-token';

const secret = 'a'.repeat(48);
const now = new Date('2026-11-21T12:00:00Z');
const subject = { userId: 'user123', workspaceId: 'ws456' };

describe('access tokens', () => {
  it('verifies its own token and returns the claims', () => {
    const token = signAccessToken(subject, secret, now);
    expect(verifyAccessToken(token, secret, now)).toEqual({
      sub: 'user123',
      wid: 'ws456',
      iat: now.getTime() / 1000,
      exp: now.getTime() / 1000 + 300,
    });
  });

  it('is valid for exactly 5 minutes', () => {
    const token = signAccessToken(subject, secret, now);
    const at = (s: number) => new Date(now.getTime() + s * 1000);
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(300);
    expect(verifyAccessToken(token, secret, at(299))).toBeDefined();
    expect(verifyAccessToken(token, secret, at(300))).toBeUndefined();
  });

  it('rejects another secret, a changed payload and a changed signature', () => {
    const token = signAccessToken(subject, secret, now);
    expect(verifyAccessToken(token, 'b'.repeat(48), now)).toBeUndefined();
    const [h, p, s] = token.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ sub: 'admin', wid: 'ws456', iat: 1, exp: 9e9 })).toString(
      'base64url',
    );
    expect(verifyAccessToken(`${h}.${forged}.${s}`, secret, now)).toBeUndefined();
    expect(verifyAccessToken(`${h}.${p}.${s.slice(0, -2)}AA`, secret, now)).toBeUndefined();
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verifyAccessToken(`${none}.${p}.`, secret, now)).toBeUndefined();
  });

  it('never throws and never accepts arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string(), (garbage) => {
        expect(verifyAccessToken(garbage, secret, now)).toBeUndefined();
      }),
    );
  });
});
