import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STS_MODEL_ID,
  DEFAULT_TTS_MODEL_ID,
  engineVoiceFor,
  findModel,
  findSpokenLanguage,
  kokoroVoiceLanguage,
  NEURAL_LANGUAGES,
  PREMADE_KOKORO_VOICES,
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
    expect(findModel(DEFAULT_TTS_MODEL_ID)?.alias_of).toBe('parla_neural_v1');
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
      const { model_id, name, description, alias_of, languages, fallback, ...behaviour } = alias;
      const { model_id: _id, name: _name, description: _d, languages: ownLanguages, ...ownBehaviour } = of;
      if (model_id === 'eleven_v3') {
        // v3 reads audio tags on the neural model, and speaks through the tags model where it cannot.
        expect(behaviour).toEqual({
          ...ownBehaviour,
          reads_audio_tags: true,
          maximum_text_length_per_request: 3000,
        });
        expect(fallback).toBe('parla_tags_v1');
      } else if (model_id === 'eleven_flash_v2_5' || model_id === 'eleven_turbo_v2_5') {
        // Flash and Turbo keep the public API's half price.
        expect(behaviour, model_id).toEqual({ ...ownBehaviour, token_cost_factor: 0.5 });
      } else expect(behaviour, alias.model_id).toEqual(ownBehaviour);
      if (fallback) {
        // An alias of the neural model lists every language its classic fallback speaks.
        expect(languages, model_id).toEqual(model(fallback).languages);
        expect(model(fallback).engine).not.toMatch(/kokoro|piper/);
      } else if (model_id !== 'eleven_english_sts_v2') expect(languages).toEqual(ownLanguages);
      // Named after the Parla model, never after another vendor's.
      expect(name).toBe(`${of.name} (alias ${model_id})`);
      expect(description.startsWith(`Alias of ${of.name} (${of.model_id}):`)).toBe(true);
    }
    // The public ids clients send by default speak neural (decision record 0021).
    for (const id of [
      'eleven_multilingual_v2',
      'eleven_turbo_v2_5',
      'eleven_flash_v2_5',
      'eleven_v3',
      'eleven_monolingual_v1',
    ])
      expect(findModel(id)?.alias_of, id).toBe('parla_neural_v1');
    // The audio tags of eleven_v3 are a Parla model of their own, which the app offers by its name.
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
    // The external server speaks every voice's text as it is (its own voices; its languages are its own);
    // the neural models speak the voices they have a rendition of (below).
    for (const model of TTS_MODELS.filter(
      (m) => m.can_do_text_to_speech && !['external', 'kokoro', 'piper'].includes(m.engine),
    )) {
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
          else if (m.fallback) expect(model(m.fallback).engine).toBe('flite');
          else if (m.engine === 'kokoro' || m.engine === 'piper') expect(m.alias_of).toBeUndefined();
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
        // The neural models by their own ids speak only the voices they have a rendition of.
        if (!rendition && !m.alias_of && (m.engine === 'kokoro' || m.engine === 'piper')) continue;
        expect(rendition && renditionLanguage(rendition)).toBe(voice.language);
      }
    }
  });

  it("follows language_code with the voice's language rendition, keeping its variant, rate and pitch", () => {
    const sarah = voiceNamed('Sarah');
    expect(speakingRendition(model('parla_v1'), sarah)).toEqual(sarah.primary);
    expect(speakingRendition(model('parla_v1'), sarah, 'en')).toEqual(sarah.primary);
    expect(speakingRendition(model('parla_v1'), sarah, 'de')).toEqual({ engine: 'espeak', voice: 'de+f3' });
    expect(speakingRendition(model('parla_multilingual_v1'), voiceNamed('Grace'), 'fr-CA')).toEqual({
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

describe('the neural models and voices (issue 27 items 2 and 3, decision record 0021)', () => {
  const sarah = voiceNamed('Sarah');
  const kokoroVoices = PREMADE_VOICES.filter((v) => v.kokoro);

  it('makes each of the 54 Kokoro voices a premade voice once, with language, accent, gender and a description', () => {
    const names = kokoroVoices.map((v) => v.kokoro?.voice);
    expect(new Set(names).size).toBe(54);
    expect(PREMADE_KOKORO_VOICES).toEqual(names);
    for (const v of kokoroVoices) {
      const kokoro = v.kokoro?.voice as string;
      expect(v.language, kokoro).toBe(kokoroVoiceLanguage(kokoro)?.language_id);
      expect(v.labels.gender, kokoro).toBe(kokoro.charAt(1) === 'f' ? 'female' : 'male');
      expect(v.labels.accent, kokoro).toBeTruthy();
      expect(v.description.length, kokoro).toBeGreaterThan(5);
      expect(v.name, kokoro).toBeTruthy();
    }
    expect(new Set(PREMADE_VOICES.map((v) => v.name)).size).toBe(PREMADE_VOICES.length);
  });

  it('keeps the classic ids clients know, re-based on Kokoro where it has a voice for their labels', () => {
    expect(sarah.voice_id).toBe('pMsXgVXv3BLzUgSXRplE');
    expect(sarah.kokoro).toEqual({ engine: 'kokoro', voice: 'af_heart' });
    expect(voiceNamed('Charlotte').kokoro?.voice).toBe('bf_emma');
    // No Scottish, German or Mandarin-with-tones Kokoro voice: those stay classic.
    for (const name of ['Alan', 'Anna', 'Wei']) expect(voiceNamed(name).kokoro, name).toBeUndefined();
  });

  it('speaks neural by default, the voice’s language with its own phonemizer', () => {
    const multilingual = model(DEFAULT_TTS_MODEL_ID);
    expect(speakingRendition(multilingual, sarah)).toEqual({ engine: 'kokoro', voice: 'af_heart' });
    expect(speakingRendition(model('parla_neural_v1'), voiceNamed('Lucía'))).toEqual({
      engine: 'kokoro',
      voice: 'ef_dora',
    });
    // language_code picks Kokoro's phonemizer language; the voice keeps its style.
    expect(speakingRendition(multilingual, sarah, 'es')).toEqual({
      engine: 'kokoro',
      voice: 'af_heart',
      language: 'es',
    });
    expect(renditionLanguage({ engine: 'kokoro', voice: 'af_heart', language: 'es' })).toBe('es');
  });

  it('falls back to the classic model where Kokoro does not speak: the alias speaks, parla_neural_v1 does not', () => {
    const multilingual = model('eleven_multilingual_v2');
    // A language Kokoro has no voice for: the classic eSpeak-NG rendition, as parla_v1 speaks it.
    expect(speakingRendition(multilingual, sarah, 'de')).toEqual({ engine: 'espeak', voice: 'de+f3' });
    expect(speakingRendition(model('parla_neural_v1'), sarah, 'de')).toBeUndefined();
    // A voice with no neural rendition keeps its classic one.
    expect(speakingRendition(multilingual, voiceNamed('Alan'))).toEqual(voiceNamed('Alan').primary);
    expect(speakingRendition(model('eleven_flash_v2_5'), voiceNamed('Anna'))).toEqual(
      voiceNamed('Anna').espeak,
    );
    expect(speakingRendition(model('parla_neural_v1'), voiceNamed('Alan'))).toBeUndefined();
  });

  it('speaks classic through the public ids when the neural model is unavailable on this server', () => {
    const none = { kokoro: false, piper: false };
    expect(speakingRendition(model('eleven_multilingual_v2'), sarah, undefined, none)).toEqual(sarah.primary);
    expect(speakingRendition(model('eleven_flash_v2_5'), sarah, undefined, none)).toEqual(sarah.espeak);
    expect(speakingRendition(model('eleven_monolingual_v1'), sarah, undefined, none)).toEqual(sarah.flite);
    expect(speakingRendition(model('parla_neural_v1'), sarah, undefined, none)).toBeUndefined();
  });

  it('gives the fast neural model to the American men’s voices, in English only', () => {
    const ryan = voiceNamed('Ryan');
    expect(speakingRendition(model('parla_neural_fast_v1'), ryan)).toEqual({
      engine: 'piper',
      voice: 'en_US-joe-medium',
    });
    expect(speakingRendition(model('parla_neural_fast_v1'), sarah)).toBeUndefined();
    expect(speakingRendition(model('parla_neural_fast_v1'), ryan, 'es')).toBeUndefined();
    expect(model('parla_neural_v1').languages.map((l) => l.language_id)).toEqual(
      NEURAL_LANGUAGES.map((l) => l.language_id),
    );
  });
});
