import { ESPEAK_LANGUAGES, PREMADE_VOICES } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_VOICES, LIBRARY_BASE_VOICES } from './built-in-voices.catalog';
import { findBaseVoice } from './speaking-voice';

describe('the built-in voices of the library', () => {
  it('are at least 40, each with a unique id and name', () => {
    expect(BUILT_IN_VOICES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(BUILT_IN_VOICES.map((v) => v.voice_id)).size).toBe(BUILT_IN_VOICES.length);
    expect(new Set(BUILT_IN_VOICES.map((v) => v.name)).size).toBe(BUILT_IN_VOICES.length);
    for (const voice of BUILT_IN_VOICES) expect(voice.voice_id).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('spread over languages, English accents, genders, ages and use cases', () => {
    const languages = new Set(BUILT_IN_VOICES.map((v) => v.language));
    expect(languages.size).toBeGreaterThanOrEqual(9);
    const english = BUILT_IN_VOICES.filter((v) => v.language === 'en');
    expect(new Set(english.map((v) => v.labels.accent)).size).toBeGreaterThanOrEqual(5);
    for (const language of languages) {
      const genders = new Set(
        BUILT_IN_VOICES.filter((v) => v.language === language).map((v) => v.labels.gender),
      );
      expect(genders, language).toEqual(new Set(['female', 'male']));
    }
    expect(new Set(BUILT_IN_VOICES.map((v) => v.labels.age))).toEqual(
      new Set(['young', 'middle_aged', 'old']),
    );
    const useCases = new Set(BUILT_IN_VOICES.map((v) => v.labels.use_case));
    for (const useCase of [
      'narration',
      'conversational',
      'news',
      'characters_animation',
      'social_media',
      'informative',
    ])
      expect(useCases.has(useCase), useCase).toBe(true);
  });

  it('speak a language the engines speak, on a base voice of that language, with a design in range', () => {
    const spoken = new Set(ESPEAK_LANGUAGES.map((l) => l.language_id));
    for (const voice of BUILT_IN_VOICES) {
      const base = findBaseVoice(voice.design.base);
      expect(base, voice.name).toBeDefined();
      expect(base?.language, voice.name).toBe(voice.language);
      expect(spoken.has(voice.language), voice.name).toBe(true);
      // The ranges voice design moves a base within (voice-design.ts describeVoice, speed 0.7–1.2).
      expect(voice.design.pitch).toBeGreaterThanOrEqual(0.8);
      expect(voice.design.pitch).toBeLessThanOrEqual(1.2);
      expect(voice.design.formant).toBeGreaterThanOrEqual(0.9);
      expect(voice.design.formant).toBeLessThanOrEqual(1.1);
      expect(voice.design.pace).toBeGreaterThanOrEqual(0.8);
      expect(voice.design.pace).toBeLessThanOrEqual(1.2);
    }
  });

  it('each have a description and a preview sentence that names them', () => {
    for (const voice of BUILT_IN_VOICES) {
      expect(voice.description.length, voice.name).toBeGreaterThan(30);
      expect(voice.preview_text, voice.name).toContain('{name}');
      expect(voice.labels.descriptive, voice.name).not.toBe('');
    }
  });

  it('have library-only bases that are not premade voices and name no engine to people', () => {
    const premade = new Set(PREMADE_VOICES.map((v) => v.voice_id));
    for (const base of LIBRARY_BASE_VOICES) expect(premade.has(base.voice_id)).toBe(false);
    for (const voice of BUILT_IN_VOICES)
      expect(`${voice.description} ${voice.preview_text}`).not.toMatch(/festival|flite|espeak/i);
  });
});
