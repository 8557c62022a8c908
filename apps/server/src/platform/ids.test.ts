import { describe, expect, it } from 'vitest';
import { newId } from './ids';

describe('newId', () => {
  it('makes 20 base62 characters by default, or the length asked for', () => {
    expect(newId()).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(newId(6)).toMatch(/^[0-9A-Za-z]{6}$/);
  });

  it('does not repeat and uses the whole alphabet', () => {
    const ids = Array.from({ length: 2000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.join('')).size).toBe(62);
  });
});
