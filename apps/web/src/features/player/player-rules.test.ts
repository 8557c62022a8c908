import { describe, expect, it } from 'vitest';
import {
  clampSeekTime,
  countWords,
  estimateSpeechSeconds,
  formatPlaybackSpeed,
  formatPlaybackTime,
  getDisplayDuration,
  isPlaybackSpeed,
  playbackSpeeds,
  shouldShowFeedback,
} from './player-rules';

describe('formatPlaybackTime', () => {
  it.each([
    [0, '0:00'],
    [0.999, '0:00'],
    [5, '0:05'],
    [59.9, '0:59'],
    [60, '1:00'],
    [83.4, '1:23'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [3600 + 61, '1:01:01'],
    [-3, '0:00'],
    [Number.NaN, '0:00'],
    [Number.POSITIVE_INFINITY, '0:00'],
  ])('%d s reads %s', (seconds, expected) => {
    expect(formatPlaybackTime(seconds)).toBe(expected);
  });
});

describe('the length estimate (words / 140 per minute, §9)', () => {
  it('counts words separated by any whitespace', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   ')).toBe(0);
    expect(countWords(' Hello,\n  world!\tAgain ')).toBe(3);
  });

  it('reads 140 words as one minute and 70 as half of one', () => {
    expect(estimateSpeechSeconds(Array(140).fill('word').join(' '))).toBe(60);
    expect(estimateSpeechSeconds(Array(70).fill('word').join(' '))).toBe(30);
    expect(estimateSpeechSeconds('')).toBe(0);
  });

  it('shows the media length first, then the item duration, then the estimate', () => {
    const text = Array(140).fill('word').join(' ');
    expect(getDisplayDuration({ mediaSeconds: 12.5, itemDurationMs: 9000, text })).toEqual({
      seconds: 12.5,
      estimated: false,
    });
    expect(getDisplayDuration({ mediaSeconds: null, itemDurationMs: 9000, text })).toEqual({
      seconds: 9,
      estimated: false,
    });
    // A stream reports Infinity until its end: the estimate stands in.
    expect(getDisplayDuration({ mediaSeconds: Number.POSITIVE_INFINITY, itemDurationMs: 0, text })).toEqual({
      seconds: 60,
      estimated: true,
    });
    expect(getDisplayDuration({ mediaSeconds: null, text: 'Two words' })).toEqual({
      seconds: 1,
      estimated: true,
    });
    expect(getDisplayDuration({ mediaSeconds: null, text: '' })).toBeNull();
    expect(getDisplayDuration({ mediaSeconds: null })).toBeNull();
  });
});

describe('shouldShowFeedback (§4)', () => {
  it('shows after playback passes 3 s, or when the audio ends', () => {
    expect(shouldShowFeedback(0, false)).toBe(false);
    expect(shouldShowFeedback(3, false)).toBe(false);
    expect(shouldShowFeedback(3.01, false)).toBe(true);
    expect(shouldShowFeedback(1.2, true)).toBe(true);
  });
});

describe('playback speeds (§9)', () => {
  it('offers exactly 0.8, 1, 1.2, 1.5 and 2', () => {
    expect(playbackSpeeds).toEqual([0.8, 1, 1.2, 1.5, 2]);
    expect(isPlaybackSpeed(1.5)).toBe(true);
    expect(isPlaybackSpeed(1.25)).toBe(false);
    expect(formatPlaybackSpeed(0.8)).toBe('0.8×');
  });
});

describe('clampSeekTime', () => {
  it('keeps a target between 0 and the end when the end is known', () => {
    expect(clampSeekTime(-4, 30)).toBe(0);
    expect(clampSeekTime(12, 30)).toBe(12);
    expect(clampSeekTime(42, 30)).toBe(30);
    expect(clampSeekTime(42, null)).toBe(42);
    expect(clampSeekTime(Number.NaN, 30)).toBe(0);
  });
});
