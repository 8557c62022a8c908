import { describe, expect, it } from 'vitest';
import { formatUptime } from './format-uptime';

describe('formatUptime', () => {
  it.each([
    [0, '0 s'],
    [59.9, '59 s'],
    [60, '1 min'],
    [3599, '59 min'],
    [3600, '1 h'],
    [3600 + 5 * 60 + 9, '1 h 5 min'],
    [86_400, '1 d'],
    [2 * 86_400 + 4 * 3600 + 59, '2 d 4 h'],
    [-5, '0 s'],
  ])('%d s reads %s', (seconds, expected) => {
    expect(formatUptime(seconds)).toBe(expected);
  });
});
