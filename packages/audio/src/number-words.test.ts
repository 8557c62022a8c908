import { describe, expect, it } from 'vitest';
import { cardinal, decimal, ordinal, year } from './number-words';

describe('English number words', () => {
  it.each([
    [0, 'zero'],
    [7, 'seven'],
    [13, 'thirteen'],
    [40, 'forty'],
    [42, 'forty-two'],
    [100, 'one hundred'],
    [305, 'three hundred five'],
    [1234, 'one thousand two hundred thirty-four'],
    [1_000_000, 'one million'],
    [2_500_017, 'two million five hundred thousand seventeen'],
    [-8, 'minus eight'],
  ])('cardinal %i', (n, words) => expect(cardinal(n)).toBe(words));

  it.each([
    [1, 'first'],
    [2, 'second'],
    [3, 'third'],
    [4, 'fourth'],
    [12, 'twelfth'],
    [20, 'twentieth'],
    [21, 'twenty-first'],
    [31, 'thirty-first'],
    [100, 'one hundredth'],
    [103, 'one hundred third'],
  ])('ordinal %i', (n, words) => expect(ordinal(n)).toBe(words));

  it.each([
    [1999, 'nineteen ninety-nine'],
    [1900, 'nineteen hundred'],
    [2000, 'two thousand'],
    [2005, 'two thousand five'],
    [2024, 'twenty twenty-four'],
    [1805, 'eighteen oh five'],
  ])('year %i', (n, words) => expect(year(n)).toBe(words));

  it('reads decimals digit by digit after the point', () => {
    expect(decimal('3.14')).toBe('three point one four');
    expect(decimal('1,000.5')).toBe('one thousand point five');
  });
});
