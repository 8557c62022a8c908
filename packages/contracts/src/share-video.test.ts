import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasBracketedTag } from './dialogue';
import {
  canMakeShareVideo,
  SHARE_VIDEO_FILE_NAME,
  SHARE_VIDEO_THEMES,
  ShareVideoQuery,
  shareVideoMessages,
  shareVideoThemes,
  stripV3Tags,
  videoErrorMessage,
  videoPreviewErrorMessage,
  videoProgress,
} from './share-video';

describe('videoProgress (history/voices §9: 130 ms per character, capped at 1)', () => {
  it('is elapsed over 130 ms per character', () => {
    expect(videoProgress(0, 10)).toBe(0);
    expect(videoProgress(650, 10)).toBe(0.5);
    expect(videoProgress(1300, 10)).toBe(1);
    expect(videoProgress(100, 1)).toBeCloseTo(100 / 130);
  });

  it('stays within 0..1, grows with time, and is done at once for an empty text', () => {
    expect(videoProgress(5000, 10)).toBe(1);
    expect(videoProgress(-50, 10)).toBe(0);
    expect(videoProgress(0, 0)).toBe(1);
    fc.assert(
      fc.property(
        fc.nat(10_000_000),
        fc.nat(10_000_000),
        fc.integer({ min: 1, max: 100_000 }),
        (a, b, length) => {
          const [early, late] = a <= b ? [a, b] : [b, a];
          const p = videoProgress(early, length);
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(1);
          expect(videoProgress(late, length)).toBeGreaterThanOrEqual(p);
        },
      ),
    );
  });
});

describe('stripV3Tags (the strip_v3_tags query)', () => {
  it.each([
    ['Hello [laughs] there', 'Hello there'],
    ['[whispers] Come closer.', 'Come closer.'],
    ['Hi [laughs], you [sighs].', 'Hi, you.'],
    ['  many   spaces \n\n and\tlines  ', 'many spaces\nand lines'],
    // A nested group is one tag and goes whole.
    ['a [outer [inner] tag] b', 'a b'],
    // A newline splits a bracket: it is text and stays.
    ['[a\nb] c', '[a\nb] c'],
    // A "[" that never closes opens no tag; the tag after it is one.
    ['[a [b] c', '[a c'],
    ['[only tags] [here]', ''],
    ['No tags at all.', 'No tags at all.'],
  ])('%j → %j', (text, expected) => {
    expect(stripV3Tags(text)).toBe(expected);
  });

  it('takes out a tag that removing another one made', () => {
    expect(stripV3Tags('[[]\n,]')).toBe('');
  });

  it('leaves no tag, no run of whitespace and no edge space, and is idempotent', () => {
    const text = fc.string({
      unit: fc.constantFrom('[', ']', ' ', '\n', '\t', 'a', 'laughs', '.', ','),
      maxLength: 40,
    });
    fc.assert(
      fc.property(text, (t) => {
        const stripped = stripV3Tags(t);
        expect(hasBracketedTag(stripped)).toBe(false);
        expect(stripped).not.toMatch(/\s\s|^\s|\s$|\t/);
        expect(stripV3Tags(stripped)).toBe(stripped);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('share video constants and messages (history/voices §3, §5, §8, §9)', () => {
  it('has the three themes, their labels and the spec’s backgrounds', () => {
    expect(SHARE_VIDEO_THEMES).toEqual(['colour', 'light', 'dark']);
    expect(SHARE_VIDEO_THEMES.map((t) => shareVideoThemes[t].label)).toEqual([
      'Multicolor',
      'White',
      'Black',
    ]);
    expect(shareVideoThemes.light.background).toEqual(['#ffffff']);
    expect(shareVideoThemes.dark.background).toEqual(['#18181b']);
    expect(shareVideoThemes.colour.background.length).toBeGreaterThan(1);
  });

  it('downloads under one fixed .mp4 name', () => {
    expect(SHARE_VIDEO_FILE_NAME).toMatch(/^[a-z-]+\.mp4$/);
  });

  it('words the toasts exactly', () => {
    expect(videoErrorMessage('Render timed out.')).toBe('Error generating video: Render timed out.');
    expect(videoErrorMessage(undefined)).toBe('Unknown error generating video');
    expect(videoErrorMessage('')).toBe('Unknown error generating video');
    expect(videoPreviewErrorMessage('Nope.')).toBe('Error generating video preview: Nope.');
    expect(videoPreviewErrorMessage(null)).toBe('Unknown error generating video preview');
    expect(shareVideoMessages.onlyTextToSpeech).toBe(
      'Video generation is only available for text-to-speech items',
    );
  });

  it('makes videos of text-to-speech items only', () => {
    expect(canMakeShareVideo('TTS')).toBe(true);
    expect(canMakeShareVideo('STS')).toBe(false);
  });

  it('reads the query: colour and stripped tags by default; strip_v3_tags as "true"/"false"', () => {
    expect(ShareVideoQuery.parse({})).toEqual({ theme: 'colour', strip_v3_tags: true });
    expect(ShareVideoQuery.parse({ theme: 'dark', strip_v3_tags: 'false' })).toEqual({
      theme: 'dark',
      strip_v3_tags: false,
    });
    expect(ShareVideoQuery.safeParse({ theme: 'sepia' }).success).toBe(false);
    expect(ShareVideoQuery.safeParse({ strip_v3_tags: 'yes' }).success).toBe(false);
  });
});
