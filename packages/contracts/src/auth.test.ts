import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brokenPasswordRules, describeBrokenPasswordRules, NewPassword, passwordMessages } from './auth';

describe('password rules (accounts §5)', () => {
  it('accepts a password with a digit, a letter, a special character and 8 trimmed characters', () => {
    expect(brokenPasswordRules('abcdef1!')).toEqual([]);
    expect(brokenPasswordRules('  Ünïcødé9€  ')).toEqual([]);
    expect(NewPassword.safeParse('correct-horse-9').success).toBe(true);
  });

  it('names each broken rule in the spec order', () => {
    expect(brokenPasswordRules('')).toEqual(['number', 'letter', 'special', 'length']);
    expect(brokenPasswordRules('abcdefgh!')).toEqual(['number']);
    expect(brokenPasswordRules('12345678!')).toEqual(['letter']);
    expect(brokenPasswordRules('abcdefg12')).toEqual(['special']);
    expect(brokenPasswordRules('ab1!')).toEqual(['length']);
  });

  it('counts the length after trimming, and white space is not a special character', () => {
    expect(brokenPasswordRules('   ab1!xyz   ')).toEqual(['length']);
    expect(brokenPasswordRules('abc 1234 x')).toEqual(['special']);
  });

  it('words the combined message exactly as the spec', () => {
    expect(describeBrokenPasswordRules(['number', 'length'])).toBe(
      "Your password doesn't meet our security requirements. Your password must contain a number. Your password must be more than 8 characters long.",
    );
    const result = NewPassword.safeParse('short');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      `${passwordMessages.prefix} ${passwordMessages.number} ${passwordMessages.special} ${passwordMessages.length}`,
    );
  });

  it('a password built from known parts is accepted exactly when it has each kind and 8 trimmed characters', () => {
    const pick = (chars: string) => fc.constantFrom(...[...chars]);
    const part = fc.oneof(
      pick('0123456789٣').map((c) => ['digit', c] as const),
      pick('abcXYZéßЖ漢').map((c) => ['letter', c] as const),
      pick('!@#$%^&*()-_=+[]{};:,.<>/?~€').map((c) => ['special', c] as const),
      pick(' \t').map((c) => ['space', c] as const),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 20 }), (parts) => {
        const password = parts.map(([, c]) => c).join('');
        const has = (kind: string) => parts.some(([k]) => k === kind);
        const expected = has('digit') && has('letter') && has('special') && [...password.trim()].length >= 8;
        expect(brokenPasswordRules(password).length === 0).toBe(expected);
      }),
    );
  });

  it('adding the missing kind of character fixes that rule and breaks no other', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 16 }),
        fc.constantFrom(['number', '7'], ['letter', 'q'], ['special', '#']),
        (password, [rule, fix]) => {
          const before = brokenPasswordRules(password);
          const after = brokenPasswordRules(password + fix);
          expect(after).not.toContain(rule);
          for (const r of after) expect(before).toContain(r);
        },
      ),
    );
  });
});
