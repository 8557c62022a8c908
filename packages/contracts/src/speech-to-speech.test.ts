import { describe, expect, it } from 'vitest';
import { SpeechToSpeechFields, speechToSpeechCost } from './speech-to-speech';

describe('speech-to-speech credits', () => {
  it('charges 1,000 per minute of input, per started second, rounded up', () => {
    expect(speechToSpeechCost(60)).toBe(1000);
    expect(speechToSpeechCost(59.2)).toBe(1000);
    expect(speechToSpeechCost(1)).toBe(17);
    expect(speechToSpeechCost(0.1)).toBe(17);
    expect(speechToSpeechCost(6)).toBe(100);
    expect(speechToSpeechCost(6.01)).toBe(117);
    expect(speechToSpeechCost(0)).toBe(1);
    expect(speechToSpeechCost(300)).toBe(5000);
  });
});

describe('speech-to-speech form fields', () => {
  it('defaults the model and the flags, and reads voice_settings as a JSON string', () => {
    expect(SpeechToSpeechFields.parse({})).toEqual({
      model_id: 'eleven_multilingual_sts_v2',
      remove_background_noise: false,
      file_format: 'other',
    });
    const parsed = SpeechToSpeechFields.parse({
      voice_settings: '{"stability":0.2,"speed":null}',
      seed: '42',
      remove_background_noise: 'true',
      file_format: 'pcm_s16le_16',
    });
    expect(parsed).toMatchObject({
      voice_settings: { stability: 0.2, speed: null },
      seed: 42,
      remove_background_noise: true,
      file_format: 'pcm_s16le_16',
    });
  });

  it('reads booleans as the public API does (True, 1, yes, on …) and refuses others', () => {
    for (const [text, value] of [
      ['True', true],
      ['1', true],
      ['yes', true],
      ['on', true],
      ['False', false],
      ['0', false],
      ['no', false],
      [' off ', false],
    ] as const) {
      expect(SpeechToSpeechFields.parse({ remove_background_noise: text }).remove_background_noise).toBe(
        value,
      );
    }
    expect(SpeechToSpeechFields.safeParse({ remove_background_noise: 'maybe' }).success).toBe(false);
  });

  it('names voice_settings when it is not JSON or out of range', () => {
    for (const bad of ['{stability', '{"stability": 2}', '[1]']) {
      const result = SpeechToSpeechFields.safeParse({ voice_settings: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path[0]).toBe('voice_settings');
    }
  });
});
