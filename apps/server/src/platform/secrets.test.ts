import { describe, expect, it } from 'vitest';
import { deriveSealingKey, openSecret, sealSecret, sha256Hex } from './secrets';

describe('sealed secrets', () => {
  const key = deriveSealingKey('a master key of at least thirty-two characters', 'test');

  it('opens what it sealed, with a fresh IV each time', () => {
    const a = sealSecret('wsec_secret', key);
    const b = sealSecret('wsec_secret', key);
    expect(a).not.toBe(b);
    expect(a).not.toContain('wsec_secret');
    expect(openSecret(a, key)).toBe('wsec_secret');
    expect(openSecret(b, key)).toBe('wsec_secret');
  });

  it('refuses another key, another purpose, or an altered text', () => {
    const sealed = sealSecret('wsec_secret', key);
    expect(() =>
      openSecret(sealed, deriveSealingKey('another master key of thirty-two characters', 'test')),
    ).toThrow();
    expect(() =>
      openSecret(sealed, deriveSealingKey('a master key of at least thirty-two characters', 'other')),
    ).toThrow();
    const parts = sealed.split('.');
    const altered = [...parts.slice(0, 3), `${parts[3]?.slice(0, -2)}AA`].join('.');
    expect(() => openSecret(altered, key)).toThrow();
    expect(() => openSecret('plain', key)).toThrow(/not a sealed secret/);
  });

  it('hashes as before', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
