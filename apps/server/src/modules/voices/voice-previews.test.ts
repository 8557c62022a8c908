import { PREMADE_VOICES, type PremadeVoice } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import type { ModelAvailability } from '../../platform/models/model-store';
import { previewRendition } from './voice-previews';

const named = (name: string) => PREMADE_VOICES.find((v) => v.name === name) as PremadeVoice;
/** A model store whose neural models are all there, or all missing. */
const store = (available: boolean): ModelAvailability => ({
  status: () => ({ available, reason: available ? null : 'not fetched' }),
});

describe('the voice a premade preview is spoken with (issue 27 item 2)', () => {
  it('is the default model’s: Kokoro for a voice that has it, its classic one otherwise', () => {
    expect(previewRendition({ models: store(true) }, named('Sarah'))).toEqual({
      engine: 'kokoro',
      voice: 'af_heart',
    });
    expect(previewRendition({ models: store(true) }, named('Fable'))).toEqual({
      engine: 'kokoro',
      voice: 'bm_fable',
    });
    expect(previewRendition({ models: store(true) }, named('Alan'))).toEqual(named('Alan').primary);
  });

  it('is classic for every voice when Kokoro is unavailable in the model store', () => {
    for (const voice of PREMADE_VOICES) {
      const rendition = previewRendition({ models: store(false) }, voice);
      expect(rendition.engine, voice.name).not.toMatch(/kokoro|piper/);
    }
    expect(previewRendition({ models: store(false) }, named('Sarah'))).toEqual(named('Sarah').primary);
  });
});
