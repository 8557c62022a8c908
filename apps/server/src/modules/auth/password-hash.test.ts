import { describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './password-hash';

describe('password hashing', () => {
  it('hashes with argon2id and a fresh salt, and verifies only the right password', async () => {
    const a = await hashPassword('correct-horse-9');
    const b = await hashPassword('correct-horse-9');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, 'correct-horse-9')).toBe(true);
    expect(await verifyPassword(a, 'correct-horse-8')).toBe(false);
  });

  it('treats the same text in composed and decomposed Unicode as one password', async () => {
    const stored = await hashPassword('Crème-brûlée-1');
    expect(await verifyPassword(stored, 'Cre\u0300me-bru\u0302le\u0301e-1')).toBe(true);
  });

  it('a malformed stored hash is a mismatch, not a crash', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyPassword('', 'x')).toBe(false);
  });

  it('verifying against no account does the work of a real check and says no', async () => {
    await verifyAgainstNothing('warm-up');
    const stored = await hashPassword('some-password-1!');
    // Interleaved rounds, the fastest of each: argon2's cost is fixed, so the minimum is what the work
    // costs and a busy machine (other test files run alongside) only ever adds to it.
    const once = async (fn: () => Promise<unknown>) => {
      const start = performance.now();
      await fn();
      return performance.now() - start;
    };
    let real = Infinity;
    let none = Infinity;
    for (let i = 0; i < 8; i++) {
      real = Math.min(real, await once(() => verifyPassword(stored, 'wrong-password-1!')));
      none = Math.min(none, await once(() => verifyAgainstNothing('wrong-password-1!')));
    }
    expect(await verifyAgainstNothing('anything')).toBe(false);
    // Same order of magnitude: the no-account path is not a shortcut.
    expect(none).toBeGreaterThan(real / 3);
  });
});
