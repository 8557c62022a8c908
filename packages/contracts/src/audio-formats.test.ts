import { describe, expect, it } from 'vitest';
import { describeOutputFormat, formatNeedsTier, OUTPUT_FORMATS } from './audio-formats';

describe('output formats', () => {
  it('reads every format name', () => {
    for (const format of OUTPUT_FORMATS) {
      const spec = describeOutputFormat(format);
      expect(spec.sampleRate).toBeGreaterThanOrEqual(8000);
      expect(format.startsWith(spec.codec)).toBe(true);
    }
    expect(describeOutputFormat('mp3_44100_128')).toEqual({
      codec: 'mp3',
      sampleRate: 44100,
      bitrate: 128,
      contentType: 'audio/mpeg',
      extension: 'mp3',
    });
  });

  it('gates mp3 192 from Creator and 44.1 kHz PCM from Pro', () => {
    expect(formatNeedsTier('mp3_44100_192', 'starter')).toBe('creator');
    expect(formatNeedsTier('mp3_44100_192', 'creator')).toBeUndefined();
    expect(formatNeedsTier('pcm_44100', 'creator')).toBe('pro');
    expect(formatNeedsTier('pcm_44100', 'pro')).toBeUndefined();
    expect(formatNeedsTier('pcm_44100', 'enterprise')).toBeUndefined();
    expect(formatNeedsTier('pcm_44100', 'trial')).toBeUndefined();
    expect(formatNeedsTier('mp3_44100_128', 'free')).toBeUndefined();
  });
});
