import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STS_MODEL_ID,
  DEFAULT_TTS_MODEL_ID,
  engineVoiceFor,
  findModel,
  findSpokenLanguage,
  PREMADE_VOICES,
  renditionLanguage,
  SPOKEN_LANGUAGES,
  speakingRendition,
  TTS_MODELS,
  type TtsModel,
} from './tts-catalog';

const model = (id: string) => findModel(id) as TtsModel;
const voiceNamed = (name: string) =>
  PREMADE_VOICES.find((v) => v.name === name) as (typeof PREMADE_VOICES)[0];

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

  it('makes each public id an alias that behaves as its Parla model, named after it (issue 26 item 7)', () => {
    const aliases = TTS_MODELS.filter((m) => m.alias_of);
    expect(aliases.map((m) => m.model_id)).toContain('eleven_v3');
    for (const alias of aliases) {
      const of = model(alias.alias_of as string);
      const { model_id, name, description, alias_of, languages, ...behaviour } = alias;
      const { model_id: _id, name: _name, description: _d, languages: ownLanguages, ...ownBehaviour } = of;
      expect(behaviour, alias.model_id).toEqual(ownBehaviour);
      if (model_id !== 'eleven_english_sts_v2') expect(languages).toEqual(ownLanguages);
      // Named after the Parla model, never after another vendor's.
      expect(name).toBe(`${of.name} (alias ${model_id})`);
      expect(description.startsWith(`Alias of ${of.name} (${of.model_id}):`)).toBe(true);
    }
    // The audio tags of eleven_v3 are a Parla model of their own, which the app offers by its name.
    expect(findModel('eleven_v3')?.alias_of).toBe('parla_tags_v1');
    expect(model('parla_tags_v1')).toMatchObject({ reads_audio_tags: true, engine: 'voice' });
  });

  it('describes Parla’s models in plain words: no engine names nor synthesis jargon', () => {
    const jargon = /formant|diphone|\bHTS\b|statistical|eSpeak|Festival|Flite|synthesi[sz]er|TTS_OPENAI_URL/i;
    for (const m of TTS_MODELS.filter((x) => !x.alias_of)) {
      expect(m.description, m.model_id).not.toMatch(jargon);
      expect(m.name, m.model_id).not.toMatch(/eleven/i);
    }
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
    // The external server speaks every voice's text as it is (its own voices; its languages are its own).
    for (const model of TTS_MODELS.filter((m) => m.can_do_text_to_speech && m.engine !== 'external')) {
      for (const voice of PREMADE_VOICES) {
        const rendition = engineVoiceFor(model, voice);
        if (model.languages.some((l) => l.language_id === voice.language)) expect(rendition).toBeDefined();
        else expect(rendition).toBeUndefined();
      }
    }
  });

  it('lists for each model only languages one of its engines speaks, with every voice', () => {
    for (const m of TTS_MODELS.filter((x) => x.can_do_text_to_speech && x.engine !== 'external')) {
      for (const language of m.languages) {
        expect(findSpokenLanguage(language.language_id)).toBeDefined();
        for (const voice of PREMADE_VOICES) {
          const rendition = speakingRendition(m, voice, language.language_id);
          // A model speaks a listed language with a voice of that language, or through a language rendition.
          if (rendition) expect(renditionLanguage(rendition)).toBe(language.language_id);
          else expect(m.engine).toBe('flite');
        }
      }
    }
    expect(model('parla_english_v1').languages.map((l) => l.language_id)).toEqual(['en']);
    expect(model('parla_external_v1').languages.map((l) => l.language_id)).toEqual(['en']);
    expect(new Set(SPOKEN_LANGUAGES.map((l) => l.language_id)).size).toBe(SPOKEN_LANGUAGES.length);
  });

  it('every premade voice speaks its own language in every model that lists it', () => {
    for (const m of TTS_MODELS.filter((x) => x.can_do_text_to_speech && x.engine !== 'external')) {
      for (const voice of PREMADE_VOICES.filter((v) =>
        m.languages.some((l) => l.language_id === v.language),
      )) {
        const rendition = speakingRendition(m, voice);
        expect(rendition && renditionLanguage(rendition)).toBe(voice.language);
      }
    }
  });

  it("follows language_code with the voice's language rendition, keeping its variant, rate and pitch", () => {
    const sarah = voiceNamed('Sarah');
    expect(speakingRendition(model('parla_v1'), sarah)).toEqual(sarah.primary);
    expect(speakingRendition(model('parla_v1'), sarah, 'en')).toEqual(sarah.primary);
    expect(speakingRendition(model('parla_v1'), sarah, 'de')).toEqual({ engine: 'espeak', voice: 'de+f3' });
    expect(speakingRendition(model('eleven_flash_v2_5'), voiceNamed('Grace'), 'fr-CA')).toEqual({
      engine: 'espeak',
      voice: 'fr+f2',
      rate: 0.92,
    });
    expect(speakingRendition(model('parla_v1'), voiceNamed('Anna'), 'zh')).toEqual({
      engine: 'espeak',
      voice: 'cmn+f3',
    });
    // The English-only model and unknown codes cannot.
    expect(speakingRendition(model('parla_english_v1'), sarah, 'de')).toBeUndefined();
    expect(speakingRendition(model('parla_v1'), sarah, 'xx')).toBeUndefined();
    expect(speakingRendition(model('parla_external_v1'), sarah, 'de')).toBeUndefined();
  });

  it("speaks an own voice's language even when it is built on a voice of another language", () => {
    const swedish = { ...voiceNamed('Ryan'), language: 'sv' };
    expect(speakingRendition(model('parla_v1'), swedish)).toEqual({ engine: 'espeak', voice: 'sv+m3' });
    // A language no engine speaks keeps the base voice, as before.
    const korean = { ...voiceNamed('Ryan'), language: 'ko' };
    expect(speakingRendition(model('parla_v1'), korean)).toEqual(korean.primary);
  });

  it('reads language codes in any case, with a region, and the Norwegian and Mandarin codes', () => {
    expect(findSpokenLanguage('DE')?.language_id).toBe('de');
    expect(findSpokenLanguage('pt_BR')?.language_id).toBe('pt');
    expect(findSpokenLanguage('nb')?.language_id).toBe('no');
    expect(findSpokenLanguage('cmn')?.language_id).toBe('zh');
    expect(findSpokenLanguage('ko')).toBeUndefined();
    expect(findSpokenLanguage('')).toBeUndefined();
  });
});
