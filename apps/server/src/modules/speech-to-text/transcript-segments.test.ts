import { describe, expect, it } from 'vitest';
import { cleanText, clockTime, eventText, shortTime, subtitleLines, wrapText } from './transcript-segments';

describe('subtitleLines', () => {
  it('keeps a short cue on one line and balances two lines', () => {
    expect(subtitleLines('Short and sweet.', 42)).toEqual(['Short and sweet.']);
    expect(subtitleLines('Let me tell you a long story about the weather today', 42)).toEqual([
      'Let me tell you a long story',
      'about the weather today',
    ]);
  });

  it('falls back to as many lines as it takes, a long word whole', () => {
    expect(subtitleLines('aaaa bbbb cccc dddd eeee', 9)).toEqual(['aaaa bbbb', 'cccc dddd', 'eeee']);
    expect(subtitleLines('supercalifragilistic is long', 10)).toEqual(['supercalifragilistic', 'is long']);
    expect(subtitleLines('', 10)).toEqual([]);
  });
});

describe('wrapText', () => {
  it('fills lines greedily', () => {
    expect(wrapText('one two three four five', 9)).toEqual(['one two', 'three', 'four five']);
  });
});

describe('clockTime and shortTime', () => {
  it('formats milliseconds, hours, rounding and nonsense', () => {
    expect(clockTime(0, ',')).toBe('00:00:00,000');
    expect(clockTime(3725.5, ',')).toBe('01:02:05,500');
    expect(clockTime(59.9996, '.')).toBe('00:01:00.000');
    expect(clockTime(360_000, '.')).toBe('100:00:00.000');
    expect(clockTime(Number.NaN, ',')).toBe('00:00:00,000');
    expect(clockTime(-3, ',')).toBe('00:00:00,000');
    expect(shortTime(3725.9)).toBe('01:02:05');
  });
});

describe('cleanText and eventText', () => {
  it('removes control characters and broken surrogates, collapses whitespace', () => {
    expect(cleanText(' a\u0000b \n\t c\u0085 \ud83c 🎉 ')).toBe('ab c 🎉');
  });

  it('brackets audio events once', () => {
    expect(eventText('laughter')).toBe('(laughter)');
    expect(eventText('(laughter)')).toBe('(laughter)');
    expect(eventText('[music]')).toBe('(music)');
    expect(eventText(' () ')).toBe('');
  });
});
