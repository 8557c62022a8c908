import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error';
import {
  failureMessage,
  generateButtonLabel,
  hasTagsToKeep,
  initialShareVideoTheme,
  isAbort,
  shareVideoQuery,
  shareVideoThemeOptions,
} from './share-video-rules';

describe('share video rules (history/voices §2–§5, §8)', () => {
  it('offers Multicolor, White and Black, starting on Multicolor', () => {
    expect(shareVideoThemeOptions).toEqual([
      { value: 'colour', label: 'Multicolor' },
      { value: 'light', label: 'White' },
      { value: 'dark', label: 'Black' },
    ]);
    expect(initialShareVideoTheme).toBe('colour');
  });

  it('shows the keep-tags toggle only for a text or a dialogue line with a bracketed tag', () => {
    expect(hasTagsToKeep({ text: 'Plain words.', dialogue: null })).toBe(false);
    expect(hasTagsToKeep({ text: 'Hi [laughs] there.', dialogue: null })).toBe(true);
    expect(hasTagsToKeep({ text: 'Split [a\nb] bracket', dialogue: null })).toBe(false);
    const line = (text: string) => ({ text, voice_id: 'v1', voice_name: 'Sarah' });
    expect(hasTagsToKeep({ text: 'Both lines', dialogue: [line('One.'), line('[sighs] Two.')] })).toBe(true);
    expect(hasTagsToKeep({ text: 'Both lines', dialogue: [line('One.'), line('Two.')] })).toBe(false);
  });

  it('strips the tags unless the toggle keeps them', () => {
    expect(shareVideoQuery('colour', false)).toEqual({ theme: 'colour', strip_v3_tags: 'true' });
    expect(shareVideoQuery('dark', true)).toEqual({ theme: 'dark', strip_v3_tags: 'false' });
  });

  it('labels the button Generate, then Try again after a failure', () => {
    expect(generateButtonLabel('idle')).toBe('Generate');
    expect(generateButtonLabel('generating')).toBe('Generating…');
    expect(generateButtonLabel('failed')).toBe('Try again');
    expect(generateButtonLabel('ready')).toBe('Generate');
  });

  it('takes the message of a failed call from the server, and none from anything else', () => {
    const http = new HttpError({ status: 500, message: 'The video could not be rendered.', errorType: 'x' });
    expect(failureMessage(http)).toBe('The video could not be rendered.');
    expect(
      failureMessage(new HttpError({ status: 0, message: 'Network error', errorType: 'network_error' })),
    ).toBe('Network error');
    expect(failureMessage(new TypeError('boom'))).toBeUndefined();
    expect(failureMessage('nope')).toBeUndefined();
    expect(isAbort(new DOMException('stop', 'AbortError'))).toBe(true);
    expect(isAbort(new Error('AbortError'))).toBe(false);
  });
});
