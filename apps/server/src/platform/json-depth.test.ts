import { describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH, jsonNestsDeeperThan } from './json-depth';
import { findUnstorable } from './request-strings';

const nested = (depth: number, inner = '"x"') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

describe('jsonNestsDeeperThan', () => {
  it('counts objects and arrays as levels, up to the limit and one past it', () => {
    expect(jsonNestsDeeperThan(nested(JSON_MAX_DEPTH), JSON_MAX_DEPTH)).toBe(false);
    expect(jsonNestsDeeperThan(nested(JSON_MAX_DEPTH + 1), JSON_MAX_DEPTH)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":[{"c":1}]}}', 4)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":{"b":[{"c":1}]}}', 3)).toBe(true);
    // Siblings do not add up: depth goes back down when a level closes.
    expect(jsonNestsDeeperThan(`[${Array(1000).fill('[[]]').join(',')}]`, 3)).toBe(false);
  });

  it('a bracket inside a string opens nothing, escaped quotes included', () => {
    expect(jsonNestsDeeperThan(`{"text":"${'['.repeat(500)}"}`, 1)).toBe(false);
    expect(jsonNestsDeeperThan(`{"text":"say \\"${'{'.repeat(500)}\\" and \\\\"}`, 1)).toBe(false);
    expect(jsonNestsDeeperThan(`{"text":"\\\\",${'"a":['.repeat(3)}]]]}`, 3)).toBe(true);
  });

  it('reads bytes as it reads text (UTF-8 continuation bytes are never brackets)', () => {
    const text = `{"name":"Lucía ${'[{'.repeat(3)} 日本","v":${nested(10)}}`;
    expect(jsonNestsDeeperThan(Buffer.from(text), 10)).toBe(true);
    expect(jsonNestsDeeperThan(Buffer.from(text), 11)).toBe(false);
    expect(jsonNestsDeeperThan(text, 10)).toBe(true);
  });

  it('a 10 MB body nested a million levels deep is answered at its 65th bracket', () => {
    expect(jsonNestsDeeperThan(nested(1_000_000), JSON_MAX_DEPTH)).toBe(true);
  });
});

describe('findUnstorable', () => {
  it('walks a value nested 100,000 levels deep without overflowing the stack', () => {
    let value: unknown = 'a\u0000b';
    for (let i = 0; i < 100_000; i++) value = [value];
    const path = findUnstorable(value);
    expect(path?.length).toBe(100_000);
    expect(path?.every((key) => key === 0)).toBe(true);
  });

  it('answers the first place in order, a key before its value', () => {
    expect(findUnstorable({ a: ['ok', 'n\u0000'], b: 'n\u0000' })).toEqual(['a', 1]);
    expect(findUnstorable({ a: 'ok', 'k\u0000': 'n\u0000' })).toEqual(['k\u0000']);
    expect(findUnstorable({ a: { b: [1, { c: 'x\u0000' }] } }, ['body'])).toEqual(['body', 'a', 'b', 1, 'c']);
    expect(findUnstorable({ a: ['fine'], b: Buffer.from([0]) })).toBeUndefined();
  });
});
