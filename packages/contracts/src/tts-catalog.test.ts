import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STS_MODEL_ID,
  DEFAULT_TTS_MODEL_ID,
  engineVoiceFor,
  findModel,
  PREMADE_VOICES,
  TTS_MODELS,
  type TtsModel,
} from './tts-catalog';

describe('the speech catalogue', () => {
  it('has at least 20 premade voices with unique 20-character ids, across English accents and the main languages', () => {
    expect(PREMADE_VOICES.length).toBeGreaterThanOrEqual(20);
    const ids = PREMADE_VOICES.map((v) => v.voice_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    const accents = new Set(PREMADE_VOICES.filter((v) => v.language === 'en').map((v) => v.labels.accent));
    expect(accents.size).toBeGreaterThanOrEqual(4);
    expect(new Set(PREMADE_VOICES.map((v) => v.language)).size).toBeGreaterThanOrEqual(10);
  });

  it('lists the default model and the public ids as aliases of real models', () => {
    expect(findModel(DEFAULT_TTS_MODEL_ID)?.alias_of).toBe('parla_v1');
    for (const model of TTS_MODELS) {
      if (model.alias_of) expect(findModel(model.alias_of)?.alias_of).toBeUndefined();
    }
    expect(findModel('eleven_v3')?.reads_audio_tags).toBe(true);
  });

  it('has a speech-to-speech model, the default public id an alias of it, speaking no text', () => {
    const sts = findModel(DEFAULT_STS_MODEL_ID);
    expect(sts).toMatchObject({ alias_of: 'parla_sts_v1', can_do_voice_conversion: true });
    expect(sts?.can_do_text_to_speech).toBe(false);
    expect(findModel('eleven_english_sts_v2')?.languages.map((l) => l.language_id)).toEqual(['en']);
    for (const voice of PREMADE_VOICES) expect(engineVoiceFor(sts as TtsModel, voice)).toBeUndefined();
    expect(TTS_MODELS.filter((m) => m.can_do_voice_conversion).every((m) => !m.can_do_text_to_speech)).toBe(
      true,
    );
  });

  it('gives every voice a rendition in every text-to-speech model that speaks its language', () => {
    for (const model of TTS_MODELS.filter((m) => m.can_do_text_to_speech)) {
      for (const voice of PREMADE_VOICES) {
        const rendition = engineVoiceFor(model, voice);
        if (model.languages.some((l) => l.language_id === voice.language)) expect(rendition).toBeDefined();
        else expect(rendition).toBeUndefined();
      }
    }
  });
});
