import { describe, expect, it } from 'vitest';
import { limitText, parseLimit, readApiKeyForm } from './api-key-form';

describe('parseLimit', () => {
  it('reads empty as no limit of its own and a whole number from 1 to a billion as credits', () => {
    expect(parseLimit('')).toBeNull();
    expect(parseLimit('   ')).toBeNull();
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('1000000000')).toBe(1_000_000_000);
  });

  it('refuses anything else', () => {
    for (const text of ['0', '-5', '1.5', 'abc', '1000000001']) expect(parseLimit(text)).toBe('invalid');
  });
});

describe('readApiKeyForm', () => {
  it('trims the name and asks for one first', () => {
    expect(readApiKeyForm('  CI  ', '')).toEqual({ name: 'CI', character_limit: null });
    expect(readApiKeyForm(' ', 'abc')).toBe('Give the key a name.');
    expect(readApiKeyForm('CI', 'abc')).toBe('The credit limit is a whole number from 1 up, or empty.');
  });

  it('shows a key’s limit back as the field holds it', () => {
    expect(limitText(null)).toBe('');
    expect(readApiKeyForm('CI', limitText(2000))).toEqual({ name: 'CI', character_limit: 2000 });
  });
});
