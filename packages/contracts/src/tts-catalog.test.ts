import { describe, expect, it } from 'vitest';
import { DEFAULT_TTS_MODEL_ID, engineVoiceFor, findModel, PREMADE_VOICES, TTS_MODELS } from './tts-catalog';

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

  it('gives every voice a rendition in every model that speaks its language', () => {
    for (const model of TTS_MODELS) {
      for (const voice of PREMADE_VOICES) {
        const rendition = engineVoiceFor(model, voice);
        if (model.languages.some((l) => l.language_id === voice.language)) expect(rendition).toBeDefined();
        else expect(rendition).toBeUndefined();
      }
    }
  });
});
